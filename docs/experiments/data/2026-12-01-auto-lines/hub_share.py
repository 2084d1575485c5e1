#!/usr/bin/env python3
"""Degree statistics of symmetrized edge lists (needs numpy): the share of
the edges on the top 1% of vertices by degree, the fraction of vertices
without edges, how far apart an edge's ends are (|u - v| / n), and the
degrees' coefficient of variation.

  irgl-graph convert GRAPH --symmetrize G.el     (or: generate rmat:S --symmetrize G.el)
  hub_share.py G.el...
"""
import sys, numpy as np, collections
for f in sys.argv[1:]:
    text = open(f).read()
    if text.startswith('#'): text = text[text.index('\n') + 1:]
    a = np.array(text.split(), dtype=np.int64).reshape(-1, 2)
    u, v = a[:,0], a[:,1]
    n = int(max(u.max(), v.max())) + 1
    deg = np.bincount(u, minlength=n)
    d = np.abs(u - v) / n
    nz = deg[deg > 0]
    top = np.sort(deg)[::-1]
    k = max(1, n // 100)
    print(f"{f:30s} n={n} m={len(u)} mean={len(u)/n:.1f} max={deg.max()} zero={np.mean(deg==0):.2f} "
          f"locality_med={np.median(d):.4f} frac_within_1pct={np.mean(d<0.01):.2f} "
          f"top1pct_edges={top[:k].sum()/len(u):.2f} cv={deg.std()/deg.mean():.1f}")
