"""The Python package's GPU calls against the C++ programs on RMAT graphs:
same GPU, same graphs (the binary cache both read), medians of 7 calls
after one warm-up; once-per-graph costs (load, check, transpose, upload)
and the result's transfer (CuPy, same bytes) apart (docs/performance.md).

    python3 tools/bench/python-vs-cpp.py BIN_DIR CACHE_DIR OUT_JSON SCALE...

BIN_DIR holds {bfs,sssp,cc,pr}-cuda; irgl must be importable."""
import json
import re
import statistics
import subprocess
import sys
import time

import numpy as np

import irgl
from irgl import devices

bin_dir, cache, out = sys.argv[1:4]
scales = [int(s) for s in sys.argv[4:]]
RUNS = 7
results = {"gpu": irgl.gpus(), "cells": []}


def timed(call, runs=RUNS):
    times = []
    value = None
    for _ in range(runs):
        start = time.perf_counter()
        value = call()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times), times, value


def cxx(app, spec, options):
    command = ["%s/%s-cuda" % (bin_dir, app), spec, "--cache-dir", cache, "--runs", str(RUNS),
               "--warmup", "1"] + options
    text = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
    match = re.search(r"time: median ([0-9.]+) ms", text)
    return (float(match.group(1)) if match else None), command, text[-600:]


for scale in scales:
    spec = "rmat:scale=%d" % scale
    start = time.perf_counter()
    weighted = irgl.load(spec, weights="hash:100", cache_dir=cache)
    load_weighted = (time.perf_counter() - start) * 1e3
    start = time.perf_counter()
    symmetric = irgl.load(spec, weights="none", symmetrize=True, cache_dir=cache)
    load_symmetric = (time.perf_counter() - start) * 1e3
    degrees = np.diff(weighted.indptr.astype(np.int64))
    source = int(np.argmax(degrees))
    weights = ["--weights", "hash:100"]
    cells = [  # app, graph, irgl's call and its arguments, the C++ program's options, in-edges
        ("bfs", weighted, irgl.bfs, (source,), weights + ["--source", str(source)], False),
        ("sssp", weighted, irgl.sssp, (source,), weights + ["--source", str(source)], False),
        ("cc", symmetric, irgl.connected_components, (), ["--weights", "none", "--symmetrize"], False),
        ("pr", weighted, irgl.pagerank, (1e-6, 1000), weights, True),
    ]
    for app, graph, function, args, options, in_edges in cells:
        def call(**keywords):
            return function(graph, *args, device="cuda", **keywords)
        graph.drop_gpu_copies()
        if in_edges:
            start = time.perf_counter(); irgl._core.ensure_transpose(graph)
            transpose_ms = (time.perf_counter() - start) * 1e3
        else:
            transpose_ms = 0.0
        start = time.perf_counter()
        devices.checked(graph, app, lambda: irgl._core.check_graph(graph, app))
        check_ms = (time.perf_counter() - start) * 1e3
        start = time.perf_counter(); copy = devices.gpu_copy(graph, 0, in_edges)
        upload_ms = (time.perf_counter() - start) * 1e3
        call()  # warm-up, as the C++ program's --warmup 1
        py_ms, py_times, value = timed(call)
        module_ms = timed(lambda: getattr(devices._cuda, app)(copy, *args, False))[0]
        gpu_result_ms = timed(lambda: call(result="gpu"))[0]
        d2h_ms = None
        try:
            import cupy
            on_gpu = cupy.zeros(value.size, dtype=value.dtype)
            d2h_ms = timed(lambda: on_gpu.get())[0]
        except Exception as error:  # noqa: BLE001
            d2h_ms = str(error)
        cpp_ms, command, tail = cxx(app, spec, options)
        cell = {"app": app, "scale": scale, "vertices": graph.num_vertices, "edges": graph.num_edges,
                "python_ms": py_ms, "python_runs": py_times, "module_ms": module_ms,
                "gpu_result_ms": gpu_result_ms, "cupy_d2h_ms": d2h_ms, "cpp_ms": cpp_ms,
                "ratio": (py_ms / cpp_ms) if cpp_ms else None,
                "load_ms": load_symmetric if app == "cc" else load_weighted,
                "check_ms": check_ms, "transpose_ms": transpose_ms, "upload_ms": upload_ms,
                "result_bytes": int(value.nbytes), "cpp_command": " ".join(command), "cpp_tail": tail}
        results["cells"].append(cell)
        print("%-4s rmat%d: python %.2f ms (module %.2f, result on GPU %.2f, cupy d2h %s), "
              "C++ %s ms, ratio %s; load %.0f, check %.0f, transpose %.0f, upload %.0f ms"
              % (app, scale, py_ms, module_ms, gpu_result_ms, d2h_ms, cpp_ms,
                 "%.3f" % cell["ratio"] if cell["ratio"] else "-",
                 cell["load_ms"], check_ms, transpose_ms, upload_ms), flush=True)
        json.dump(results, open(out, "w"), indent=1)
    del weighted, symmetric
