#!/usr/bin/env python3
"""Writes a 'cc' result file for a MatrixMarket graph (plain, .gz or .xz),
labelling each vertex with the root of its union-find set: labels that are
vertex ids in no particular order, independent of irgl-check's numbering.

usage: components.py GRAPH.mtx[.xz|.gz]"""
import gzip
import lzma
import sys

path = sys.argv[1]
opener = lzma.open if path.endswith(".xz") else gzip.open if path.endswith(".gz") else open
with opener(path, "rt") as lines:
    rows = cols = None
    parent = []

    def find(v):
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for line in lines:
        if line.startswith("%"):
            continue
        fields = line.split()
        if rows is None:
            rows, cols = int(fields[0]), int(fields[1])
            parent = list(range(max(rows, cols)))
            continue
        a, b = find(int(fields[0]) - 1), find(int(fields[1]) - 1)
        if a != b:
            parent[max(a, b)] = min(a, b)

n = len(parent)
print("# irgl-result 1\n# algorithm cc\n# vertices %d" % n)
print("\n".join(str(find(v)) for v in range(n)))
