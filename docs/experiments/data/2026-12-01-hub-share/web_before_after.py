#!/usr/bin/env python3
"""The web graphs' bfs, sssp, cc and kcore cells before and after this
experiment: auto over the best fixed schedule (auto_vs_best.py's ratios),
from the previous runs' logs, then with call 3's run replacing them.

  web_before_after.py      (from this folder)
"""
import glob, math, os, sys

here = os.path.dirname(os.path.abspath(__file__))
confirmed = os.path.normpath(os.path.join(here, "..", "2026-12-01-auto-confirmed"))
sys.path.insert(0, confirmed)
from auto_vs_best import cell_ratios  # noqa: E402

logs = (sorted(glob.glob(os.path.join(confirmed, "call1-*.log"))) +
        sorted(glob.glob(os.path.join(confirmed, "call2-gpu*.log"))) +
        [os.path.join(confirmed, "call3-gpu0.log"),
         os.path.join(here, "..", "2026-12-01-auto-lines", "call6-bench.log")])
before = cell_ratios(logs)
now = cell_ratios(logs + [os.path.join(here, "call3-bench.log")])
web = ["musae_git_edges", "ego-twitter-undirected", "cnr-2000", "uk-2007-05-100000"]
cells = [(g, a) for g in web for a in ["bfs", "sssp", "cc", "kcore"]]
print("| graph | app | before: auto / best (best, ms) | now |")
print("|---|---|---|---|")
for cell in cells:
    b, n = before[cell], now[cell]
    print(f"| {cell[0]} | {cell[1]} | {b[0]:.2f} ({b[1]} {b[2]:.3f}) | {n[0]:.2f} ({n[1]} {n[2]:.3f}) |")
geomean = lambda v: math.exp(sum(map(math.log, v)) / len(v))
for name, ratios in (("before", before), ("now", now)):
    values = [ratios[c][0] for c in cells]
    print(f"\n{name}: geomean {geomean(values):.3f}, {sum(v <= 1.10 for v in values)} of {len(values)} within 10%", end="")
print()
