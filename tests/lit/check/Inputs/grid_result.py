#!/usr/bin/env python3
"""Writes the result file of an algorithm on the generator graph
grid:ROWSxCOLS (vertex r*COLS + c at row r, column c; every edge to the 4
neighbours in both directions), from closed forms:

  bfs SOURCE, sssp SOURCE (unit weights): |r - r0| + |c - c0|
  cc: one component
  kcore K: with at least 2 rows and 2 columns the grid is its own 2-core and
           its 3-core is empty (peeling the degree-2 corners repeatedly
           removes everything)
  tc: no triangles (the grid is bipartite)

usage: grid_result.py ROWS COLS ALGORITHM [SOURCE | K]"""
import sys

rows, cols, algorithm = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
n = rows * cols
header = "# irgl-result 1\n# algorithm %s\n# vertices %d" % (algorithm, n)
if algorithm in ("bfs", "sssp"):
    source = int(sys.argv[4])
    r0, c0 = divmod(source, cols)
    print(header + "\n# source %d" % source)
    for v in range(n):
        r, c = divmod(v, cols)
        print(abs(r - r0) + abs(c - c0))
elif algorithm == "cc":
    print(header)
    print("\n".join(["7"] * n))
elif algorithm == "kcore":
    k = int(sys.argv[4])
    print(header + "\n# k %d" % k)
    print("\n".join(["1" if k <= 2 else "0"] * n))
elif algorithm == "tc":
    print(header + "\n0")
else:
    sys.exit("grid_result.py: unknown algorithm " + algorithm)
