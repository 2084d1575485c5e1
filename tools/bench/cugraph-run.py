#!/usr/bin/env python3
"""cuGraph (RAPIDS pylibcugraph) as a GPU peer beside irglc's programs.

  cugraph-run.py --app bfs|sssp|cc|pr --graph GRAPH [--source N]
                 [graph options] [--trials N] [--warmup N] [-o RESULT]

Runs one cuGraph algorithm on GRAPH exactly as irglc's programs load it:
irglc's own loader (`irgl-graph convert`, given the same graph options as
the program) writes the graph as a binary CSR into a pipe, so both see the
same vertex ids, edges, weights and source. The graph is built on the GPU
once (pylibcugraph.SGGraph, not timed); then the algorithm runs --warmup
untimed and --trials timed times, each timed from a device synchronization
before the call to one after it (the call includes cuGraph's own checks and
the copy of its result into new device arrays, not the copy to the host).
It prints a line per trial and the median:

  run 1: 0.412 ms
  ...
  cugraph bfs karate: median 0.410 ms of 5 trials (pylibcugraph 26.10.00)

With -o it writes the last trial's answer as an irglc result file
(docs/results.md), which irgl-check verifies: bfs and sssp write `inf` for
unreached vertices, cc labels every vertex with the smallest vertex id of
its component (irglc's labels), pr the ranks.

The apps: bfs is cuGraph's plain BFS (direction-optimizing BFS needs a
symmetric graph), sssp its SSSP (irglc's integer weights as float32 when
every path length fits float32 exactly, else float64), cc its weakly
connected components (the graph is symmetrized first, as irglc's cc gets
--symmetrize), pr its PageRank with irglc's damping 0.85, tolerance and
iteration cap (--tolerance, --max-iterations; the same criterion: the L1
change of an iteration below the tolerance).

Exit status: 0 done; 1 a failure (conversion, cuGraph); 2 bad options;
77 skipped, with a line "cugraph APP: skipped (no pylibcugraph: ...)",
when pylibcugraph, CuPy or NumPy cannot be imported or there is no GPU.
"""

import argparse
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

PROG = "cugraph-run.py"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
APPS = ("bfs", "sssp", "cc", "pr")
SKIPPED = 77  # the exit status of a test that did not run (automake, lit)
# irglc's lang-examples/pr.irgl: damping, and its parameters' defaults.
DAMPING = 0.85
PR_TOLERANCE = 1e-6
PR_MAX_ITERATIONS = 1000
# irgl-graph's loading options, passed on as the programs take them:
# option -> whether it takes a value.
GRAPH_OPTIONS = {"--format": True, "--symmetrize": False, "--drop-self-loops": False,
                 "--drop-duplicates": False, "--simple": False, "--no-sort": False,
                 "--transpose": False, "--renumber": False, "--header": False,
                 "--weights": True, "--weight-type": True, "--cache-dir": True}


class Failure(Exception):
    """A run that cannot go on: one line, exit status 1."""


# ---------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------

def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog=PROG, allow_abbrev=False,
        description="Runs cuGraph's bfs, sssp, cc or pr on a graph as irglc loads it.")
    parser.add_argument("--app", required=True, choices=APPS)
    parser.add_argument("--graph", required=True, help="a graph file or generator spec")
    parser.add_argument("--source", help="bfs, sssp: the source vertex (default 0)")
    parser.add_argument("--tolerance", type=float,
                        help="pr: stop when an iteration changes the ranks by less than this "
                             "in L1 (default %g, irglc's)" % PR_TOLERANCE)
    parser.add_argument("--max-iterations", type=int,
                        help="pr: the most iterations (default %d, irglc's)" % PR_MAX_ITERATIONS)
    parser.add_argument("--trials", type=int, default=5, help="timed runs (default 5)")
    parser.add_argument("--warmup", type=int, default=1, help="untimed runs before them")
    parser.add_argument("-o", "--output", help="write the last trial's answer here")
    parser.add_argument("--force", action="store_true", help="replace an existing --output")
    parser.add_argument("--irgl-graph", help="irglc's irgl-graph (default $IRGL_GRAPH, "
                        "build/bin/irgl-graph, or the one on PATH)")
    parser.add_argument("--name", help="the graph's name in the output line")
    graph = parser.add_argument_group(
        "graph options", "as irglc's programs take them (irgl-graph convert --help)")
    for option, takes_value in GRAPH_OPTIONS.items():
        if takes_value:
            graph.add_argument(option, dest=graph_dest(option), metavar="VALUE")
        else:
            graph.add_argument(option, dest=graph_dest(option), action="store_true")
    args = parser.parse_args(argv)
    check_args(parser, args)
    return args


def graph_dest(option):
    """Where argparse keeps a graph option: --weight-type -> graph_weight_type."""
    return "graph_" + option[2:].replace("-", "_")


def check_args(parser, args):
    """Refuses what the app cannot use (argparse's error: exit status 2)."""
    if args.trials < 1 or args.warmup < 0:
        parser.error("--trials must be at least 1 and --warmup at least 0")
    if args.app in ("bfs", "sssp"):
        source = "0" if args.source is None else args.source
        if not source.isdigit():
            parser.error("--source must be a vertex id (0, 1, ...), not '%s'" % source)
        args.source = int(source)
    elif args.source is not None:
        parser.error("%s takes no --source" % args.app)
    if args.app != "pr" and (args.tolerance is not None or args.max_iterations is not None):
        parser.error("--tolerance and --max-iterations are for pr only")
    if args.app == "pr":
        args.tolerance = PR_TOLERANCE if args.tolerance is None else args.tolerance
        args.max_iterations = (PR_MAX_ITERATIONS if args.max_iterations is None
                               else args.max_iterations)
        if args.tolerance < 0 or args.max_iterations < 1:
            parser.error("--tolerance must be at least 0 and --max-iterations at least 1")
    if args.output and os.path.exists(args.output) and not args.force:
        parser.error("%s exists (use --force to replace it)" % args.output)


def graph_name(spec):
    """karate.mtx.xz -> karate; rmat:scale=22 -> rmat22 (gap.sh's names)."""
    if os.path.exists(spec):
        return os.path.basename(spec).split(".")[0]
    return spec.replace("rmat:scale=", "rmat")


def convert_options(args):
    """irgl-graph convert's options for the app: the program's graph options,
    with the weights sssp uses (the file's by default, as irglc's sssp) and
    none for the others (their answers do not depend on weights); cc's graph
    symmetrized (irglc's cc gets --symmetrize; cuGraph's weakly connected
    components refuse a graph that is not symmetric)."""
    options = []
    for option, takes_value in GRAPH_OPTIONS.items():
        value = getattr(args, graph_dest(option))
        if option == "--weights":
            value = (value or "file") if args.app == "sssp" else "none"
        if takes_value and value is not None:
            options.append("%s=%s" % (option, value))
        elif not takes_value and value:
            options.append(option)
    if args.app == "cc" and "--symmetrize" not in options and "--simple" not in options:
        options.append("--symmetrize")
    return options


def find_irgl_graph(given):
    for candidate in (given, os.environ.get("IRGL_GRAPH"),
                      os.path.join(ROOT, "build", "bin", "irgl-graph"),
                      shutil.which("irgl-graph")):
        if candidate:
            if not (os.path.isfile(candidate) and os.access(candidate, os.X_OK)):
                if candidate == given:
                    raise Failure("--irgl-graph %s is not an executable" % given)
                continue
            return candidate
    raise Failure("no irgl-graph found (give --irgl-graph PATH or set IRGL_GRAPH)")


# ---------------------------------------------------------------------------
# The libraries: missing ones skip the run
# ---------------------------------------------------------------------------

def import_libraries(app):
    """(numpy, cupy, pylibcugraph), or exit 77 saying which is missing."""
    modules = []
    for name in ("numpy", "pylibcugraph", "cupy"):
        try:
            modules.append(__import__(name))
        except Exception as error:  # noqa: BLE001 - a broken install skips too
            skip(app, "no %s: %s" % (name, one_line(error)))
    numpy, pylibcugraph, cupy = modules
    try:
        if cupy.cuda.runtime.getDeviceCount() < 1:
            skip(app, "no GPU: CUDA sees no device")
    except Exception as error:  # noqa: BLE001 - no driver, no device
        skip(app, "no GPU: %s" % one_line(error))
    return numpy, cupy, pylibcugraph


def skip(app, why):
    print("cugraph %s: skipped (%s)" % (app, why), flush=True)
    sys.exit(SKIPPED)


def one_line(error):
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


# ---------------------------------------------------------------------------
# The graph, as irglc loads it
# ---------------------------------------------------------------------------

class HostGraph:
    """irglc's CSR on the host: offsets, targets, optional weights, flags."""
    WEIGHTED, TRANSPOSE, SYMMETRIC, SORTED, ORIGINAL_IDS = 1, 2, 4, 8, 16

    def __init__(self, vertices, edges, flags, offsets, targets, weights):
        self.vertices, self.edges, self.flags = vertices, edges, flags
        self.offsets, self.targets, self.weights = offsets, targets, weights

    @property
    def symmetric(self):
        return bool(self.flags & self.SYMMETRIC)


def load_graph(np, irgl_graph, spec, options):
    """Runs irgl-graph convert into a pipe and reads its binary CSR
    (runtime/include/irgl/graph/binary_format.h) with NumPy."""
    command = [irgl_graph, "convert", "--quiet", "--output-format", "csr"] + options + [spec, "-"]
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors)
        try:
            graph = read_binary_csr(np, process.stdout)
        except Failure as failure:
            process.kill()
            process.wait()
            errors.seek(0)
            why = errors.read().decode(errors="replace").strip().splitlines()
            # An empty pipe is irgl-graph's failure: its message says why.
            raise Failure("cannot load %s: %s" % (spec, why[-1] if why else failure))
        process.stdout.close()
        if process.wait() != 0:
            errors.seek(0)
            why = errors.read().decode(errors="replace").strip().splitlines()
            raise Failure("irgl-graph convert %s failed: %s" % (
                spec, why[-1] if why else "exit %d" % process.returncode))
    return graph


def read_binary_csr(np, stream):
    header = read_exactly(stream, 64)
    magic, version, flags, weight_type = struct.unpack_from("<8sIII", header)
    vertices, edges = struct.unpack_from("<QQ", header, 24)
    if magic != b"IRGLCSR\0" or version != 1:
        raise Failure("not irglc's binary CSR (version 1)")
    if weight_type not in (0, 1, 2):
        raise Failure("unknown weight type %d" % weight_type)
    offsets = read_array(np, stream, np.uint64, vertices + 1)
    targets = read_array(np, stream, np.uint32, edges)
    weights = None
    if flags & HostGraph.WEIGHTED:
        weights = read_array(np, stream, np.int32 if weight_type == 1 else np.float32, edges)
    while stream.read(1 << 20):  # a transpose or original ids: not needed
        pass
    # The checksums were checked by irgl-graph when it loaded the source;
    # the pipe only needs the CSR's shape confirmed.
    if offsets[0] != 0 or offsets[-1] != edges or np.any(offsets[1:] < offsets[:-1]):
        raise Failure("malformed CSR offsets")
    if edges and int(targets.max()) >= vertices:
        raise Failure("an edge target is not a vertex")
    return HostGraph(vertices, edges, flags, offsets, targets, weights)


def read_exactly(stream, size):
    """`size` bytes of `stream` in a new buffer (Failure if it ends first)."""
    buffer = bytearray(size)
    view, done = memoryview(buffer), 0
    while done < size:
        count = stream.readinto(view[done:])
        if not count:
            raise Failure("the graph ended early (%d of %d bytes)" % (done, size))
        done += count
    return buffer


def read_array(np, stream, dtype, count):
    """An array of the format: `count` items, padded to 8 bytes."""
    size = count * np.dtype(dtype).itemsize
    buffer = read_exactly(stream, (size + 7) // 8 * 8)
    return np.frombuffer(buffer, dtype=dtype, count=count)


# ---------------------------------------------------------------------------
# The graph on the GPU
# ---------------------------------------------------------------------------

def vertex_dtype(np, graph):
    """cuGraph takes the vertex type of the edge arrays for the edge counts
    too: 32 bits unless the vertices or edges need more."""
    limit = 2 ** 31 - 1
    return np.int32 if graph.vertices < limit and graph.edges < limit else np.int64


def sssp_weights(np, graph):
    """irglc's integer weights as cuGraph's float weights: float32 when every
    path's length is an integer float32 holds exactly (the largest weight
    times the vertices at most 2^24), float64 otherwise, so that cuGraph's
    distances equal irglc's."""
    if graph.weights is None:
        raise Failure("the graph has no edge weights (give --weights, e.g. hash:100 as "
                      "irglc's sssp gets)")
    if graph.weights.dtype != np.int32:
        raise Failure("sssp needs integer weights, as irglc's sssp (give --weights=hash:100 "
                      "or --weight-type=int)")
    largest = int(graph.weights.max()) if graph.edges else 0
    if graph.edges and int(graph.weights.min()) < 0:
        raise Failure("sssp needs weights of at least 0")
    exact = largest * max(graph.vertices, 1) <= 2 ** 24
    return graph.weights.astype(np.float32 if exact else np.float64)


def is_multigraph(np, sources, targets, sorted_lists):
    """Whether some edge repeats (with sorted adjacency lists, repeats are
    neighbours; unsorted lists are taken to have some)."""
    if not sorted_lists:
        return True
    return bool(np.any((sources[1:] == sources[:-1]) & (targets[1:] == targets[:-1])))


def device_graph(np, cupy, plc, handle, graph, app):
    """pylibcugraph's SGGraph of the CSR, with irglc's vertex ids: no
    renumbering, and every vertex listed so that isolated ones stay. PageRank
    pulls over in-edges: its graph is stored transposed, else cuGraph would
    transpose it inside every (timed) call."""
    dtype = vertex_dtype(np, graph)
    degrees = np.diff(graph.offsets).astype(np.int64)
    sources = np.repeat(np.arange(graph.vertices, dtype=dtype), degrees)
    targets = graph.targets.astype(dtype)
    weights = sssp_weights(np, graph) if app == "sssp" else None
    properties = plc.GraphProperties(
        is_symmetric=graph.symmetric,
        is_multigraph=is_multigraph(np, sources, targets, graph.flags & HostGraph.SORTED))
    return plc.SGGraph(
        resource_handle=handle, graph_properties=properties,
        src_or_offset_array=cupy.asarray(sources), dst_or_index_array=cupy.asarray(targets),
        weight_array=None if weights is None else cupy.asarray(weights),
        store_transposed=(app == "pr"), renumber=False, do_expensive_check=False,
        vertices_array=cupy.arange(graph.vertices, dtype=dtype))


# ---------------------------------------------------------------------------
# The algorithms: each returns (vertices, values) as device arrays
# ---------------------------------------------------------------------------

def algorithm(np, cupy, plc, handle, sg, graph, args, state):
    """A function running the app once on the device graph (pr notes in
    `state` whether its last run converged)."""
    dtype = vertex_dtype(np, graph)
    if args.app == "bfs":
        sources = cupy.asarray([args.source], dtype=dtype)

        def run():
            distances, _, vertices = plc.bfs(
                handle=handle, graph=sg, sources=sources, direction_optimizing=False,
                depth_limit=-1, compute_predecessors=False, do_expensive_check=False)
            return vertices, distances
    elif args.app == "sssp":
        def run():
            # cuGraph's sssp requires compute_predecessors=True.
            vertices, distances, _ = plc.sssp(
                resource_handle=handle, graph=sg, source=args.source, cutoff=np.inf,
                compute_predecessors=True, do_expensive_check=False)
            return vertices, distances
    elif args.app == "cc":
        def run():
            return plc.weakly_connected_components(
                resource_handle=handle, graph=sg, offsets=None, indices=None, weights=None,
                labels=None, do_expensive_check=False)
    else:
        def run():
            # Ranks from 1/N, dangling rank spread uniformly, stop when the L1
            # change of an iteration is below epsilon: pr.irgl's iteration.
            # cuGraph computes in float32 (the type of an unweighted graph's
            # weights); a run that reaches the cap returns its ranks, as
            # irglc's does.
            vertices, ranks, state["converged"] = plc.pagerank(
                resource_handle=handle, graph=sg, precomputed_vertex_out_weight_vertices=None,
                precomputed_vertex_out_weight_sums=None, initial_guess_vertices=None,
                initial_guess_values=None, alpha=DAMPING, epsilon=args.tolerance,
                max_iterations=args.max_iterations, do_expensive_check=False,
                fail_on_nonconvergence=False)
            return vertices, ranks
    return run


def timed_runs(cupy, run, trials, warmup):
    """(the last answer, each timed run's milliseconds). Each run is timed on
    the host between two device synchronizations: a pylibcugraph call
    returns when its result is in device arrays, but the work it queued may
    still be running."""
    answer, times = None, []
    for trial in range(warmup + trials):
        cupy.cuda.runtime.deviceSynchronize()
        start = time.perf_counter()
        answer = run()
        cupy.cuda.runtime.deviceSynchronize()
        if trial >= warmup:
            times.append((time.perf_counter() - start) * 1e3)
    return answer, times


# ---------------------------------------------------------------------------
# The answer as irglc's result file
# ---------------------------------------------------------------------------

def per_vertex(np, cupy, answer, count):
    """The values of vertices 0..count-1 from cuGraph's (vertices, values)."""
    vertices, values = (cupy.asnumpy(a) for a in answer)
    if len(vertices) != count:
        raise Failure("cuGraph answered for %d vertices, not %d" % (len(vertices), count))
    result = np.empty(count, dtype=values.dtype)
    result[vertices] = values
    return result


def result_lines(np, app, values):
    """The value lines: distances as integers with `inf` for unreached
    (cuGraph marks them with its type's largest value), cc's labels as the
    smallest vertex id of each component, ranks in the shortest form that
    reads back to the same float."""
    if app in ("bfs", "sssp"):
        if np.issubdtype(values.dtype, np.integer):
            unreached = values == np.iinfo(values.dtype).max
        else:
            unreached = ~(values < np.finfo(values.dtype).max)
        reached = np.where(unreached, 0, values)
        if not np.issubdtype(values.dtype, np.integer):
            reached = np.rint(reached)  # sums of integer weights: exact already
        text = reached.astype(np.uint64).astype(str).astype(object)
        text[unreached] = "inf"
        return text.tolist()
    if app == "cc":
        # Vertex ids rise along the array: a label's first index is the
        # smallest vertex of its component.
        _, first, inverse = np.unique(values, return_index=True, return_inverse=True)
        return first[inverse].astype(str).tolist()
    return [repr(float(v)) for v in values.astype(np.float32).tolist()]


def write_result(path, app, fields, lines, force):
    """irglc's result file (docs/results.md), written beside `path` and
    renamed into place, so that it appears complete or not at all."""
    if os.path.exists(path) and not force:
        raise Failure("%s exists (use --force to replace it)" % path)
    header = ["# irgl-result 1", "# algorithm " + app] + ["# %s %s" % f for f in fields]
    directory = os.path.dirname(os.path.abspath(path))
    with tempfile.NamedTemporaryFile("w", dir=directory, delete=False) as handle:
        handle.write("\n".join(header + lines) + "\n")
    os.replace(handle.name, path)


# ---------------------------------------------------------------------------

def main(argv):
    args = parse_args(argv)
    np, cupy, plc = import_libraries(args.app)
    try:
        irgl_graph = find_irgl_graph(args.irgl_graph)
        graph = load_graph(np, irgl_graph, args.graph, convert_options(args))
        if args.app in ("bfs", "sssp") and args.source >= graph.vertices:
            raise Failure("--source %d is not a vertex of %s (%d vertices)" % (
                args.source, args.graph, graph.vertices))
        handle = plc.ResourceHandle()
        sg = device_graph(np, cupy, plc, handle, graph, args.app)
        state = {}
        run = algorithm(np, cupy, plc, handle, sg, graph, args, state)
        answer, times = timed_runs(cupy, run, args.trials, args.warmup)
        if state.get("converged") is False:
            print("%s: cuGraph's pagerank stopped after --max-iterations %d without reaching "
                  "--tolerance %g" % (PROG, args.max_iterations, args.tolerance),
                  file=sys.stderr)
    except Failure as failure:
        print("%s: %s" % (PROG, failure), file=sys.stderr)
        return 1
    except Exception as error:  # noqa: BLE001 - cuGraph's and CUDA's errors
        print("%s: cuGraph's %s failed on %s: %s: %s" % (
            PROG, args.app, args.graph, type(error).__name__, one_line(error)), file=sys.stderr)
        return 1
    version = getattr(plc, "__version__", "unknown")
    for index, ms in enumerate(times, 1):
        print("run %d: %.6f ms" % (index, ms))
    print("cugraph %s %s: median %.3f ms of %d trials (pylibcugraph %s)" % (
        args.app, args.name or graph_name(args.graph), statistics.median(times), len(times),
        version), flush=True)
    if args.output:
        fields = [("vertices", graph.vertices)]
        if args.app in ("bfs", "sssp"):
            fields.append(("source", args.source))
        if args.app == "pr":
            fields += [("tolerance", args.tolerance), ("max_iterations", args.max_iterations)]
        fields.append(("program", "cugraph (pylibcugraph %s)" % version))
        try:
            values = per_vertex(np, cupy, answer, graph.vertices)
            write_result(args.output, args.app, fields, result_lines(np, args.app, values),
                         args.force)
        except (Failure, OSError) as failure:
            print("%s: %s" % (PROG, failure), file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
