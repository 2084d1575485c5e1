"""Graph algorithms compiled by irglc, from Python.

    import irgl
    g = irgl.load("road.gr")                      # or from_edges / from_csr / from_scipy / from_networkx
    levels = irgl.bfs(g, source=0)                # numpy uint32, irgl.UNREACHED where unreached
    ranks = irgl.pagerank(g)                      # numpy float32

The algorithms are irglc's examples (lang-examples/*.irgl), compiled for
CUDA and for the CPU (sequential C++, irglc's reference); device= picks
("cpu", "cuda", "cuda:N"; default: a usable GPU, else the CPU; see
irgl.devices), and result="gpu" leaves an output on the GPU.
irgl.compile(path) builds your own .irgl program the same way. Bad input
raises ValueError with irglc's message. See docs/python.md.
"""

import functools
import operator
import re

import numpy as np

from . import _core, devices
from .compile import CompileError, Program, compile  # noqa: A004 (the package's verb)

__all__ = [
    "Graph", "UNREACHED", "load", "from_edges", "from_csr", "from_scipy", "from_networkx",
    "bfs", "sssp", "connected_components", "pagerank", "kcore", "triangles", "triangles_per_vertex",
    "strongly_connected_components", "maximal_independent_set", "coloring",
    "betweenness_centrality", "jaccard", "louvain", "compile", "CompileError", "Program",
    "gpus", "default_device",
]

Graph = _core.Graph
gpus = devices.gpus
default_device = devices.default_device
# The value of a vertex that bfs or sssp does not reach.
UNREACHED = int(np.iinfo(np.uint32).max)


def _in_python_terms(call):
    """irglc's messages name command-line options (--weights) and C++
    build options (BuildOptions::symmetrize): this wrapper's errors name
    the keyword arguments instead."""
    @functools.wraps(call)
    def wrapped(*args, **kwargs):
        try:
            return call(*args, **kwargs)
        except ValueError as error:
            message = re.sub(r"^--([a-z-]+):", lambda m: m.group(1).replace("-", "_") + ":",
                             str(error))
            message = re.sub(r"BuildOptions::(\w+)", r"\1=True", message)
            raise ValueError(message) from None
    return wrapped


# The graph's arrays as read-only numpy views (no copy): CSR offsets
# (uint64), targets (uint32) and, for a weighted graph, its weights (int32
# or float32; None without).
Graph.indptr = property(_core.indptr, doc="CSR offsets (uint64, num_vertices + 1)")
Graph.indices = property(_core.indices, doc="CSR targets (uint32, num_edges)")


def _weights(graph):
    words = _core.weight_words(graph)
    kind = graph.weight_type
    if kind == "none":
        return None
    return words.view(np.int32 if kind == "int32" else np.float32)


Graph.weights = property(_weights, doc="edge weights (int32 or float32), None when unweighted")
Graph.drop_gpu_copies = devices.drop_gpu_copies
Graph.__repr__ = lambda g: "<irgl.Graph %s: %d vertices, %d edges%s>" % (
    g.name, g.num_vertices, g.num_edges,
    "" if g.weight_type == "none" else ", %s weights" % g.weight_type)

# The cleanup every constructor takes, as the command line's graph options
# (docs/graphs.md): symmetrize adds each edge's reverse; simple drops
# self-loops and duplicate edges (keeping the lightest) and symmetrizes.
_CLEANUP = ("symmetrize", "simple", "drop_self_loops", "drop_duplicates")


def _cleanup(options):
    unknown = set(options) - set(_CLEANUP)
    if unknown:
        raise TypeError("unknown graph option(s): %s (known: %s)"
                        % (", ".join(sorted(unknown)), ", ".join(_CLEANUP)))
    return {name: bool(options.get(name, False)) for name in _CLEANUP}


@_in_python_terms
def load(path, *, weights="file", weight_type="keep", format="auto", cache_dir=None, **cleanup):
    """Loads a graph file (MatrixMarket, edge list, DIMACS, Galois, binary CSR;
    .gz/.xz too). weights: "file", "none", "unit" or "hash[:MAX[:SEED]]";
    weight_type: "keep", "int" or "float"; cache_dir: a folder for the
    binary cache, so the next load of the file is fast."""
    return _core.load(str(path), weights=weights, weight_type=weight_type, format=format,
                      cache_dir=cache_dir or "", **_cleanup(cleanup))


def _vertex_ids(values, what):
    array = np.asarray(values)
    if array.ndim != 1:
        raise ValueError("%s: a 1-d array of vertex ids, not shape %s" % (what, array.shape))
    if array.size and not np.issubdtype(array.dtype, np.integer):
        raise ValueError("%s: vertex ids must be integers, not %s" % (what, array.dtype))
    if array.size and (array.min() < 0 or array.max() > UNREACHED - 1):
        raise ValueError("%s: vertex ids must lie in [0, 2^32 - 2]" % what)
    return np.ascontiguousarray(array, dtype=np.uint32)


def _weight_array(weights, count):
    if weights is None:
        return None
    array = np.asarray(weights)
    if array.shape != (count,):
        raise ValueError("weights: %d values for %d edges" % (array.size, count))
    if np.issubdtype(array.dtype, np.integer):
        if array.size and (array.min() < np.iinfo(np.int32).min or array.max() > np.iinfo(np.int32).max):
            raise ValueError("weights: integer weights must fit in int32")
        return np.ascontiguousarray(array, dtype=np.int32)
    if np.issubdtype(array.dtype, np.floating):
        return np.ascontiguousarray(array, dtype=np.float32)
    raise ValueError("weights: integers or floats, not %s" % array.dtype)


@_in_python_terms
def from_edges(sources, targets, weights=None, *, num_vertices=None, weight_rule="file", **cleanup):
    """A graph of the edges sources[i] -> targets[i] (numpy arrays or
    sequences of vertex ids), with optional weights (integers become int32,
    floats float32). num_vertices defaults to the largest id + 1.
    weight_rule: "file" keeps the weights given; "unit", "hash[:MAX[:SEED]]"
    or "none" replace them."""
    sources = _vertex_ids(sources, "sources")
    targets = _vertex_ids(targets, "targets")
    if num_vertices is None:
        num_vertices = int(max(sources.max(initial=0), targets.max(initial=0))) + 1 \
            if sources.size else 0
    if num_vertices < 0 or num_vertices > UNREACHED:
        raise ValueError("num_vertices: %d is not a vertex count (0 .. 2^32 - 1)" % num_vertices)
    return _core.from_edges(sources, targets, _weight_array(weights, sources.size),
                            num_vertices=int(num_vertices), weight_rule=weight_rule,
                            **_cleanup(cleanup))


def from_csr(indptr, indices, weights=None, **options):
    """A graph of CSR arrays: vertex v's out-edges go to
    indices[indptr[v]:indptr[v + 1]]."""
    indptr = np.asarray(indptr)
    if indptr.ndim != 1 or indptr.size == 0:
        raise ValueError("indptr: a 1-d array of num_vertices + 1 offsets")
    if not np.issubdtype(indptr.dtype, np.integer):
        raise ValueError("indptr: offsets must be integers, not %s" % indptr.dtype)
    if indptr.max() > np.iinfo(np.int64).max:
        raise ValueError("indptr: offsets must be below 2^63")
    # Signed, so that a decreasing offset shows as a negative degree (and
    # the graph's own uint64 offsets are accepted).
    indptr = indptr.astype(np.int64)
    degrees = np.diff(indptr)
    if indptr[0] != 0 or (degrees < 0).any() or indptr[-1] != len(indices):
        raise ValueError("indptr: offsets must start at 0, never decrease and end at "
                         "len(indices) = %d" % len(indices))
    sources = np.repeat(np.arange(indptr.size - 1, dtype=np.uint32), degrees)
    return from_edges(sources, indices, weights, num_vertices=indptr.size - 1, **options)


def from_scipy(matrix, **options):
    """A graph of a square scipy.sparse matrix: an edge i -> j of weight
    A[i, j] for every stored entry (weights=None in options drops them)."""
    import scipy.sparse
    if matrix.shape[0] != matrix.shape[1]:
        raise ValueError("from_scipy: the matrix is %d x %d, not square" % matrix.shape)
    csr = scipy.sparse.csr_matrix(matrix)
    csr.sort_indices()
    weights = options.pop("weights", csr.data)
    return from_csr(csr.indptr, csr.indices, weights, **options)


def _networkx_edges(nx_graph, index, weight=None):
    """nx_graph's edges as arrays of vertex numbers (index maps its nodes)
    and, when weight names an attribute, a list of their values (1 where
    missing); an undirected graph's edges both ways, a self-loop once."""
    edges = list(nx_graph.edges(data=weight, default=1)) if weight else list(nx_graph.edges())
    sources = np.fromiter((index[e[0]] for e in edges), dtype=np.int64, count=len(edges))
    targets = np.fromiter((index[e[1]] for e in edges), dtype=np.int64, count=len(edges))
    values = [e[2] for e in edges] if weight else None
    if not nx_graph.is_directed():
        loops = sources == targets
        sources, targets = (np.concatenate([sources, targets[~loops]]),
                            np.concatenate([targets, sources[~loops]]))
        if values is not None:
            values = values + [v for v, loop in zip(values, loops) if not loop]
    return sources, targets, values


def from_networkx(nx_graph, weight=None, **options):
    """A graph of a networkx graph: its nodes numbered 0.. in nx_graph's
    order (the graph's `nodes` attribute lists them), an undirected graph's
    edges in both directions; weight names the edge attribute to keep."""
    nodes = list(nx_graph.nodes())
    sources, targets, values = _networkx_edges(
        nx_graph, {node: i for i, node in enumerate(nodes)}, weight)
    graph = from_edges(sources, targets, values, num_vertices=len(nodes), **options)
    graph.nodes = nodes
    return graph


def _source(graph, source):
    source = operator.index(source)
    if not 0 <= source < graph.num_vertices:
        raise ValueError("source %d is not a vertex of the %d-vertex graph"
                         % (source, graph.num_vertices))
    return source


def _count(value, what):
    """A count option of a program (uint32_t)."""
    value = operator.index(value)
    if not 0 <= value < 2**32:
        raise ValueError("%s %d is not in [0, 2^32 - 1]" % (what, value))
    return value


# Every algorithm with vertex outputs takes result=: "numpy" (default) copies
# the output to a numpy array; "gpu" (with a GPU device) leaves it on the
# GPU as a DLPack array (cupy.from_dlpack, torch.from_dlpack), in the
# program's own type (kcore and maximal_independent_set: uint32 0/1).

# The programs that read in-edges: their graph gets its transpose (and its
# GPU copy carries it).
_READS_IN_EDGES = {"pr", "scc", "bc"}


def _run(program, graph, device, *args, result="numpy"):
    """Runs the package's program on graph, on device (see irgl.devices);
    result="gpu" leaves a vertex output on the GPU (a DLPack array)."""
    if result not in ("numpy", "gpu"):
        raise ValueError("result=%r: use \"numpy\" or \"gpu\"" % (result,))
    gpu = devices.gpu_of(device)
    if gpu is None and result == "gpu":
        raise ValueError("result=\"gpu\" needs a GPU device (this call runs on the CPU)")
    in_edges = program in _READS_IN_EDGES
    if in_edges:
        _core.ensure_transpose(graph)  # built once and kept, for either build
    if gpu is None:
        return getattr(_core, program)(graph, *args)
    devices.checked(graph, program, lambda: _core.check_graph(graph, program))
    copy = devices.gpu_copy(graph, gpu, in_edges)
    if program == "tc":
        return devices._cuda.tc(copy)
    return getattr(devices._cuda, program)(copy, *args, result == "gpu")


def _as_bool(values):
    """A 0/1 numpy output as bool; one left on the GPU stays uint32."""
    return values.astype(bool) if isinstance(values, np.ndarray) else values


@_in_python_terms
def bfs(graph, source=0, *, device=None, result="numpy"):
    """Breadth-first levels from source: numpy uint32, UNREACHED where
    unreached (lang-examples/bfs.irgl)."""
    return _run("bfs", graph, device, _source(graph, source), result=result)


@_in_python_terms
def sssp(graph, source=0, *, device=None, result="numpy"):
    """Shortest-path distances from source over the graph's nonnegative
    weights: with int32 weights numpy uint32, UNREACHED where unreached
    (lang-examples/sssp.irgl); with float32 weights numpy float64 (each
    path's weights summed in double from the source on), inf where
    unreached (lang-examples/sssp_real.irgl)."""
    program = "sssp_real" if graph.weight_type == "float32" else "sssp"
    return _run(program, graph, device, _source(graph, source), result=result)


@_in_python_terms
def connected_components(graph, *, device=None, result="numpy"):
    """Each vertex's component, named by its smallest vertex: numpy uint32.
    The graph must be symmetric (symmetrize=True when building it;
    lang-examples/cc.irgl)."""
    return _run("cc", graph, device, result=result)


@_in_python_terms
def pagerank(graph, tolerance=1e-6, max_iterations=1000, *, damping=0.85, device=None,
             result="numpy"):
    """PageRank (damping 0.85, dangling vertices' rank spread evenly) until
    the ranks' L1 change is below tolerance: numpy float32
    (lang-examples/pr.irgl)."""
    if damping != 0.85:
        raise ValueError("pagerank: damping %g: lang-examples/pr.irgl uses 0.85" % damping)
    return _run("pr", graph, device, float(tolerance), int(max_iterations), result=result)


@_in_python_terms
def kcore(graph, k=2, *, device=None, result="numpy"):
    """Whether each vertex is in the graph's k-core: numpy bool. The graph
    must be simple (simple=True; lang-examples/kcore.irgl)."""
    if not 0 <= int(k) < 2 ** 32:
        raise ValueError("kcore: k = %r is not in [0, 2^32 - 1]" % (k,))
    return _as_bool(_run("kcore", graph, device, int(k), result=result))


@_in_python_terms
def strongly_connected_components(graph, *, device=None, result="numpy"):
    """Each vertex's strongly connected component along out-edges, named
    by its largest vertex: numpy uint32 (lang-examples/scc.irgl)."""
    return _run("scc", graph, device, result=result)


@_in_python_terms
def maximal_independent_set(graph, *, device=None, result="numpy"):
    """A maximal independent set: numpy bool, the same set on every run.
    The graph must be simple (simple=True; lang-examples/mis.irgl)."""
    return _as_bool(_run("mis", graph, device, result=result))


@_in_python_terms
def coloring(graph, *, largest_first=False, device=None, result="numpy"):
    """A proper vertex colouring (neighbours differ): numpy uint32, greedy
    colouring's in an order of the vertices: a fixed random one, or with
    largest_first the larger degree first, ties to the smaller id
    (networkx's greedy_color, strategy "largest_first"). The graph must be
    simple (simple=True; lang-examples/coloring.irgl)."""
    return _run("coloring", graph, device, bool(largest_first), result=result)


@_in_python_terms
def triangles(graph, *, device=None):
    """The number of triangles. The graph must be simple, with sorted
    lists (simple=True; lang-examples/tc.irgl)."""
    return int(_run("tc", graph, device))


@_in_python_terms
def triangles_per_vertex(graph, *, device=None, result="numpy"):
    """The number of triangles each vertex belongs to: numpy uint64. The
    graph must be simple, with sorted lists (simple=True;
    lang-examples/tc_per_vertex.irgl)."""
    return _run("tc_per_vertex", graph, device, result=result)


def _source_runs(graph, sources):
    """Distinct vertex ids as (first, count) runs of consecutive ids."""
    ids = np.sort(_vertex_ids(sources, "sources").astype(np.int64))
    if ids.size and ids[-1] >= graph.num_vertices:
        raise ValueError("sources: vertex %d is not a vertex of the %d-vertex graph"
                         % (ids[-1], graph.num_vertices))
    repeated = ids[1:][ids[1:] == ids[:-1]]
    if repeated.size:
        raise ValueError("sources: vertex %d appears more than once" % repeated[0])
    breaks = np.flatnonzero(np.diff(ids) != 1) + 1
    return [(int(run[0]), run.size) for run in np.split(ids, breaks) if run.size]


@_in_python_terms
def betweenness_centrality(graph, sources=None, *, endpoints=False, device=None,
                           result="numpy"):
    """Betweenness centrality (Brandes) along out-edges, unweighted: for
    each vertex v, the sum over sources s and targets t (v differing from
    both) of the share of shortest s-t paths through v: numpy float64,
    unnormalized, every ordered pair counted (on a symmetric graph each
    unordered pair twice: networkx halves it). sources: None for every
    vertex, else the vertex ids to start from (each at most once;
    consecutive ids run in one call of the program). endpoints: a path
    counts at its ends too (1 at each vertex a source reaches, their
    number at the source). The graph must have no repeated edge
    (drop_duplicates=True; lang-examples/bc.irgl). result="gpu" needs
    every vertex or one run of consecutive ids."""
    runs = [(0, 0)] if sources is None else _source_runs(graph, sources)
    if graph.num_vertices == 0:  # no source to run from
        if result == "gpu":
            raise ValueError("betweenness_centrality: result=\"gpu\" of a graph without vertices")
        return np.zeros(0)
    if result == "gpu" and len(runs) != 1:
        raise ValueError("betweenness_centrality: result=\"gpu\" takes every vertex or one run "
                         "of consecutive sources, not %d runs" % len(runs))
    total = np.zeros(graph.num_vertices)
    for first, count in runs:
        part = _run("bc", graph, device, first, count, bool(endpoints), result=result)
        if result == "gpu":
            return part
        total += part
    return total


@_in_python_terms
def louvain(graph, *, resolution=1.0, threshold=1e-7, max_levels=0, max_iterations=1000,
            device=None, result="numpy"):
    """Louvain communities maximising modularity at `resolution`, each edge
    weighing its weight (1 when unweighted; the graph must be symmetric,
    its weights float32 and nonnegative; a self-loop counts twice, as in
    networkx's degree): (numpy uint32 community
    of each vertex, named by a vertex id; their modularity as a float).
    Levels end when one gains at most `threshold`; max_levels 0 is no
    limit. Moves are made in parallel, so the communities are one
    partition Louvain can reach, not networkx's for a given seed
    (lang-examples/louvain.irgl)."""
    if not resolution >= 0:
        raise ValueError("louvain: resolution %r is not a number >= 0" % (resolution,))
    if not threshold >= 0:
        raise ValueError("louvain: threshold %r is not a number >= 0" % (threshold,))
    return _run("louvain", graph, device, float(resolution), float(threshold),
                _count(max_levels, "max_levels"), _count(max_iterations, "max_iterations"),
                result=result)


@_in_python_terms
def jaccard(graph, source, *, device=None, result="numpy"):
    """The Jaccard similarity of source with every vertex,
    |N(source) & N(v)| / |N(source) | N(v)| (0 where both have no
    neighbour): numpy float64. The graph must be simple (simple=True;
    lang-examples/jaccard.irgl)."""
    return _run("jaccard", graph, device, _source(graph, source), result=result)
