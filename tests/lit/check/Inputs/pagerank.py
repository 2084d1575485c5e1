#!/usr/bin/env python3
"""Writes a 'pr' result file for an edge-list graph ('u v [w]' lines, '#'
comments, 0-based ids, |V| = largest id + 1) by the definition in
docs/results.md, computed here independently of irgl-check:

    PR(v) = (1-d)/N + d * (sum over edges (u,v) of PR(u)/outdeg(u) + D/N)

D = total rank of the vertices without out-edges, PR = 1/N at first, iterated
until the L1 change is below 1e-13.

usage: pagerank.py EDGES [--damping D] [--add=VERTEX:DELTA]...
--add changes a vertex's value by DELTA after the computation (to make
results that are off by a known amount)."""
import argparse

parser = argparse.ArgumentParser()
parser.add_argument("edges")
parser.add_argument("--damping", type=float, default=0.85)
parser.add_argument("--add", action="append", default=[], metavar="VERTEX:DELTA")
args = parser.parse_args()

edges = []
with open(args.edges) as lines:
    for line in lines:
        if line.strip() and not line.startswith("#"):
            u, v = line.split()[:2]
            edges.append((int(u), int(v)))
n = 1 + max(max(u, v) for u, v in edges)
outdeg = [0] * n
for u, _ in edges:
    outdeg[u] += 1

d = args.damping
rank = [1.0 / n] * n
while True:
    dangling = sum(rank[u] for u in range(n) if outdeg[u] == 0)
    new = [(1 - d) / n + d * dangling / n] * n
    for u, v in edges:
        new[v] += d * rank[u] / outdeg[u]
    change = sum(abs(a - b) for a, b in zip(new, rank))
    rank = new
    if change < 1e-13:
        break

for change in args.add:
    vertex, delta = change.split(":")
    rank[int(vertex)] += float(delta)
print("# irgl-result 1\n# algorithm pr\n# vertices %d" % n)
for value in rank:
    print(repr(value))
