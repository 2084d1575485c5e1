#!/usr/bin/env python3
"""Auto against the best fixed schedule after the new lines, estimated:
the confirmed ratios of 2026-12-01-auto-confirmed, each cell that call 3
measured scaled by its new / old time (same binary, same run).

  estimate.py   (from any directory; prints the tables of auto_vs_best.py)
"""
import collections, importlib.util, os, statistics

here = os.path.dirname(os.path.abspath(__file__))
confirmed_dir = os.path.normpath(os.path.join(here, "..", "2026-12-01-auto-confirmed"))
spec = importlib.util.spec_from_file_location("auto_vs_best", os.path.join(confirmed_dir, "auto_vs_best.py"))
auto_vs_best = importlib.util.module_from_spec(spec)
spec.loader.exec_module(auto_vs_best)

logs = ["call1-gpu0.log", "call1-gpu1-grid-rmat.log", "call1-gpu1-moscow.log",
        "call1-gpu1-powerlaw-tc.log", "call1-gpu1-powerlaw.log", "call2-gpu0.log",
        "call2-gpu1-tc.log", "call2-gpu1.log", "call3-gpu0.log"]
ratios = auto_vs_best.cell_ratios([os.path.join(confirmed_dir, log) for log in logs])

times = collections.defaultdict(list)
for line in open(os.path.join(here, "call3-lines.txt")):
    parts = line.split()
    if len(parts) == 5 and parts[2] in ("new", "old") and parts[3].startswith("rep"):
        times[(parts[0], parts[1], parts[2])].append(float(parts[4]))

scaled = 0
for (file, app, config) in list(times):
    if config != "new":
        continue
    name = file[:-3] if file.endswith(".xz") else file
    graph = name if (name, app) in ratios else name.rsplit(".", 1)[0]
    if (graph, app) not in ratios:
        continue
    change = statistics.median(times[(file, app, "new")]) / statistics.median(times[(file, app, "old")])
    final, *rest = ratios[(graph, app)]
    ratios[(graph, app)] = (final * change, *rest)
    scaled += 1
print(f"{scaled} cells scaled by call 3's new / old\n")
auto_vs_best.print_tables(ratios, "after the lines")
