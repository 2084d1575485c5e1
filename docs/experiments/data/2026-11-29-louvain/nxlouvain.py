"""networkx's louvain_communities against the irgl backend (GPU) on the
same networkx graphs, same process: conversion (first call) apart, then
medians of 3 calls; modularity of each answer by networkx."""
import lzma, statistics, sys, time
import networkx as nx
import numpy as np
import scipy.io

def load(path):
    with lzma.open(path, "rt") as f:
        if path.endswith(".mtx.xz"):
            M = scipy.io.mmread(f).tocoo()
            G = nx.Graph(); G.add_nodes_from(range(M.shape[0]))
            G.add_edges_from((int(i), int(j)) for i, j in zip(M.row, M.col) if i != j)
            return G
        G = nx.Graph()
        for line in f:
            if line[0] in "#%" or line.startswith("id_1"): continue
            a = line.replace(",", " ").split()
            if len(a) >= 2 and a[0] != a[1]: G.add_edge(int(a[0]), int(a[1]))
        return G

def timed(call, runs):
    times, value = [], None
    for _ in range(runs):
        t = time.perf_counter(); value = call(); times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times), value

for path in sys.argv[1:]:
    G = load(path)
    t = time.perf_counter(); nx.community.louvain_communities(G, backend="irgl")
    first = (time.perf_counter() - t) * 1e3
    irgl_ms, parts = timed(lambda: nx.community.louvain_communities(G, backend="irgl"), 3)
    nx_ms, nx_parts = timed(lambda: nx.community.louvain_communities(G, seed=1), 1)
    print("%s: %d nodes %d edges | irgl first call %.1f ms (conversion + run), then median %.1f ms, Q %.4f, %d communities | networkx %.1f ms, Q %.4f, %d communities | %.0fx"
          % (path.split("/")[-1], G.number_of_nodes(), G.number_of_edges(), first, irgl_ms,
             nx.community.modularity(G, parts), len(parts), nx_ms,
             nx.community.modularity(G, nx_parts), len(nx_parts), nx_ms / irgl_ms), flush=True)
