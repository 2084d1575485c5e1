#!/usr/bin/env python3
"""Streamed queries: irgl-serve's resident kernel against a launch per query.

  serve-bench.py IRGL_SERVE OUT.json NAME=SPEC [NAME=SPEC ...] [--kinds bfs,sssp,khop]
                 [--graph-options "--weights hash:100 --cache-dir DIR"] [--slots 1,8,32]

For each graph and query kind: random queries (irgl-serve --make-queries,
sources with out-edges, two targets, k-hop radius 2); first each mode's
capacity (every query at once: queries per second), then replays at fixed
arrival rates in both modes: half the launch mode's capacity (both keep
up), twice it (the launches fall behind) and half the resident capacity.
Latency counts from a query's due time to its answer. --slots adds
saturated resident runs with those slot counts, --gpus on that many GPUs
(each GPU's answered queries and busy time). Medians of one replay each
(several hundred queries); the GPU's name is in the output.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

QUERIES = 2000       # resident runs (--queries)
LAUNCH_QUERIES = 300  # launch runs at capacity (--launch-queries)
REPLAY_SECONDS = 1.5


def run_serve(serve, spec, graph_options, queries, modes, rates, extra=()):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as stats:
        path = stats.name
    command = [serve, spec, *graph_options, "--queries", queries, "--mode", ",".join(modes),
               "--rate", ",".join(f"{r:g}" for r in rates), "--stats", path, *extra]
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit(f"serve-bench: {' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
    with open(path) as file:
        result = json.load(file)
    os.unlink(path)
    return result


def head(path, count, into):
    with open(path) as source, open(into, "w") as target:
        for _, line in zip(range(count), source):
            target.write(line)
    return into


def bench_kind(serve, name, spec, graph_options, kind, slots, gpus, workdir):
    queries = os.path.join(workdir, f"{name}-{kind}.txt")
    with open(queries, "w") as out:
        subprocess.run([serve, spec, *graph_options, "--make-queries", str(QUERIES), "--kind", kind,
                        "--hops", "2", "--targets", "2", "--seed", "7"], stdout=out, check=True)
    rows = []
    launch = run_serve(serve, spec, graph_options,
                       head(queries, LAUNCH_QUERIES, queries + ".launch"), ["launch"], [0])
    resident = run_serve(serve, spec, graph_options, queries, ["resident"], [0])
    gpu = resident["gpu"]
    launch_capacity = launch["runs"][0]["queries_per_second"]
    resident_capacity = resident["runs"][0]["queries_per_second"]
    rows += [dict(load="capacity", **launch["runs"][0]), dict(load="capacity", **resident["runs"][0])]
    for label, rate in (("0.5x launch capacity", 0.5 * launch_capacity),
                        ("2x launch capacity", 2 * launch_capacity),
                        ("0.5x resident capacity", 0.5 * resident_capacity)):
        count = max(50, min(QUERIES, int(rate * REPLAY_SECONDS)))
        paced = head(queries, count, queries + ".paced")
        modes = ["resident", "launch"] if rate <= 4 * launch_capacity else ["resident"]
        replay = run_serve(serve, spec, graph_options, paced, modes, [rate])
        rows += [dict(load=label, **run) for run in replay["runs"]]
    for count in slots:
        run = run_serve(serve, spec, graph_options, queries, ["resident"], [0],
                        ["--slots", str(count)])["runs"][0]
        rows.append(dict(load=f"capacity, {count} slots", **run))
    for count in gpus:
        run = run_serve(serve, spec, graph_options, queries, ["resident"], [0],
                        ["--gpus", str(count)])["runs"][0]
        rows.append(dict(load=f"capacity, {count} GPUs", **run))
    for row in rows:
        row.update(graph=name, kind=kind, vertices=resident["vertices"], edges=resident["edges"])
    return gpu, rows


def main():
    global QUERIES, LAUNCH_QUERIES
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("serve")
    parser.add_argument("output")
    parser.add_argument("graphs", nargs="+", help="NAME=SPEC")
    parser.add_argument("--kinds", default="bfs,sssp,khop")
    parser.add_argument("--graph-options", default="--weights hash:100")
    parser.add_argument("--slots", default="", help="extra saturated runs with these slot counts")
    parser.add_argument("--gpus", default="", help="extra saturated resident runs on this many GPUs")
    parser.add_argument("--queries", type=int, default=QUERIES)
    parser.add_argument("--launch-queries", type=int, default=LAUNCH_QUERIES)
    args = parser.parse_args()
    QUERIES, LAUNCH_QUERIES = args.queries, args.launch_queries
    graph_options = args.graph_options.split()
    slots = [int(s) for s in args.slots.split(",") if s]
    gpus = [int(g) for g in args.gpus.split(",") if g]
    all_rows, gpu = [], None
    with tempfile.TemporaryDirectory() as workdir:
        for graph in args.graphs:
            name, _, spec = graph.partition("=")
            for kind in args.kinds.split(","):
                gpu, rows = bench_kind(args.serve, name, spec, graph_options, kind, slots, gpus,
                                       workdir)
                all_rows += rows
                for row in rows:
                    latency = row["latency_us"]
                    print(f"{name} {kind} {row['load']:>24} {row['mode']:>8}: "
                          f"{row['queries_per_second']:10.0f} q/s, latency median "
                          f"{latency['median'] / 1000:9.3f} ms, p99 {latency['p99'] / 1000:9.3f} ms"
                          + "".join(f"; GPU {u['gpu']}: {u['answered']} in {u['busy_seconds']:.3f} s busy"
                                    for u in row.get("gpus", []) if len(row["gpus"]) > 1),
                          flush=True)
    with open(args.output, "w") as out:
        json.dump({"gpu": gpu, "rows": all_rows}, out, indent=1)


if __name__ == "__main__":
    main()
