#!/usr/bin/env python3
"""Auto against the best fixed schedule from irgl-bench run logs (the cell
lines it prints), later logs replacing earlier cells; confirmed ratios from
the '(confirming)' re-runs of --confirm-auto. Markdown on stdout.

  auto_vs_best.py [--table-only] LOG...   (--table-only: ignore the re-runs)
"""
import collections, math, re, statistics, sys

FIXED = ["alb", "twc", "lb", "merge-path", "warp", "block", "thread"]
FAMILY = {}
for line in open(__file__.rsplit("/", 5)[0] + "/tools/gpu/datasets.txt"):
    if line.strip() and not line.startswith("#"):
        path = line.split()[0]
        FAMILY[path.split("/")[1].split(".")[0]] = path.split("/")[0]
CELL = re.compile(r"^  (\S+)\s+(\S+)( \(confirming\))?\s+(\S+)\s+([0-9.]+) ms$")

cells = collections.defaultdict(dict)
confirm = {}
table_only = "--table-only" in sys.argv
for log in [a for a in sys.argv[1:] if a != "--table-only"]:
    seen = set()
    for line in open(log):
        m = CELL.match(line)
        if not m:
            continue
        app, build, confirming, graph, ms = m.groups()
        key = (graph, app)
        if confirming and table_only:
            continue
        if confirming:
            if key not in seen:  # this log's re-runs replace an earlier log's
                seen.add(key)
                confirm[key] = collections.defaultdict(list)
            confirm[key][build].append(float(ms))
        else:
            if build == "auto":
                confirm.pop(key, None)
            cells[key][build] = float(ms)

families, misses = collections.defaultdict(list), []
for (graph, app), builds in cells.items():
    fixed = {b: ms for b, ms in builds.items() if b in FIXED}
    if "auto" not in builds or not fixed:
        continue
    best = min(fixed, key=fixed.get)
    first = builds["auto"] / fixed[best]
    re_run = confirm.get((graph, app), {})
    confirmed = (statistics.median(re_run["auto"]) / statistics.median(re_run[best])
                 if re_run.get("auto") and re_run.get(best) else None)
    final = confirmed if confirmed is not None else first
    family = FAMILY.get(graph.split(".")[0], graph.split(":")[0].rstrip("0123456789"))
    families[family].append(final)
    if final > 1.10:
        misses.append((final, graph, app, best, fixed[best], builds["auto"], first, confirmed))

geomean = lambda v: math.exp(sum(map(math.log, v)) / len(v))
print("| family | cells | auto / best fixed | within 10% | worst |")
print("|---|---|---|---|---|")
every = []
for family in sorted(families):
    v = families[family]
    every += v
    print("| %s | %d | %.3f | %d | %.2f |" % (family, len(v), geomean(v), sum(x <= 1.10 for x in v), max(v)))
print("| **all** | %d | **%.3f** | **%d** | %.2f |" % (len(every), geomean(every),
                                                     sum(x <= 1.10 for x in every), max(every)))
print()
print("| graph | app | best fixed (ms) | auto ms | table | confirmed |")
print("|---|---|---|---|---|---|")
for final, graph, app, best, best_ms, auto_ms, first, confirmed in sorted(misses, reverse=True):
    print("| %s | %s | %s %.3f | %.3f | %.2f | %s |" % (graph, app, best, best_ms, auto_ms, first,
                                                     "%.2f" % confirmed if confirmed else "-"))
