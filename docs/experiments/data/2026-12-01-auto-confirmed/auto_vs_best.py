#!/usr/bin/env python3
"""Auto against the best fixed schedule from irgl-bench run logs (the cell
lines it prints), later logs replacing earlier cells; confirmed ratios from
the '(confirming)' re-runs of --confirm-auto. Markdown on stdout.

  auto_vs_best.py [--table-only] LOG...   (--table-only: ignore the re-runs)

Other scripts take the ratios from cell_ratios(logs, table_only).
"""
import collections, math, re, statistics, sys

FIXED = ["alb", "twc", "lb", "merge-path", "warp", "block", "thread"]
FAMILY = {}
for line in open(__file__.rsplit("/", 5)[0] + "/tools/gpu/datasets.txt"):
    if line.strip() and not line.startswith("#"):
        path = line.split()[0]
        FAMILY[path.split("/")[1].split(".")[0]] = path.split("/")[0]
CELL = re.compile(r"^  (\S+)\s+(\S+)( \(confirming\))?\s+(\S+)\s+([0-9.]+) ms$")

def cell_ratios(logs, table_only=False):
    """{(graph, app): (final ratio, best, best ms, auto ms, table ratio, confirmed)}"""
    cells = collections.defaultdict(dict)
    confirm = {}
    for log in logs:
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
    ratios = {}
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
        ratios[(graph, app)] = (final, best, fixed[best], builds["auto"], first, confirmed)
    return ratios


def family_of(graph):
    return FAMILY.get(graph.split(".")[0], graph.split(":")[0].rstrip("0123456789"))


def print_tables(ratios, final_column=None):
    """final_column: the heading of a last column holding each miss's final
    ratio, where it is neither the table's nor the confirmed one."""
    families, misses = collections.defaultdict(list), []
    for (graph, app), (final, best, best_ms, auto_ms, first, confirmed) in ratios.items():
        families[family_of(graph)].append(final)
        if final > 1.10:
            misses.append((final, graph, app, best, best_ms, auto_ms, first, confirmed))
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
    extra = " %s |" % final_column if final_column else ""
    print("| graph | app | best fixed (ms) | auto ms | table | confirmed |" + extra)
    print("|---|---|---|---|---|---|" + ("---|" if final_column else ""))
    for final, graph, app, best, best_ms, auto_ms, first, confirmed in sorted(misses, reverse=True):
        print("| %s | %s | %s %.3f | %.3f | %.2f | %s |" % (graph, app, best, best_ms, auto_ms, first,
                                                         "%.2f" % confirmed if confirmed else "-")
              + (" %.2f |" % final if final_column else ""))


if __name__ == "__main__":
    arguments = sys.argv[1:]
    print_tables(cell_ratios([a for a in arguments if a != "--table-only"],
                             "--table-only" in arguments))
