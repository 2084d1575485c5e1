#!/usr/bin/env python3
"""Tables of this experiment's logs: lines "GRAPH APP CONFIG repN MS".

medians.py LOG [--best CFG,CFG] : per cell the median over processes of
each config, and with --best each config over the fastest of the named
ones, with the geometric mean and the cells above 1.10.
"""
import argparse, collections, math, statistics

parser = argparse.ArgumentParser()
parser.add_argument("log")
parser.add_argument("--best", default="", help="configs whose fastest is the reference")
args = parser.parse_args()

times = collections.defaultdict(list)
cells, configs = [], []
for line in open(args.log):
    parts = line.split()
    if len(parts) != 5 or not parts[3].startswith("rep"):
        continue
    try:
        value = float(parts[4])
    except ValueError:
        continue
    cell, config = (parts[0], parts[1]), parts[2]
    times[cell + (config,)].append(value)
    if cell not in cells:
        cells.append(cell)
    if config not in configs:
        configs.append(config)

best = [c for c in args.best.split(",") if c]
print("| graph | app | " + " | ".join(configs) + " |" + (" / best: " + " | ".join(configs) + " |" if best else ""))
print("|---" * (2 + len(configs) * (2 if best else 1)) + "|")
ratios = collections.defaultdict(list)
for cell in cells:
    med = {c: statistics.median(times[cell + (c,)]) for c in configs if times[cell + (c,)]}
    row = f"| {cell[0]} | {cell[1]} | " + " | ".join(f"{med[c]:.3f}" if c in med else "-" for c in configs) + " |"
    if best:
        reference = min(med[c] for c in best if c in med)
        for c in configs:
            if c in med:
                ratios[c].append(med[c] / reference)
        row += " " + " | ".join(f"{med[c] / reference:.2f}" if c in med else "-" for c in configs) + " |"
    print(row)
if best:
    print()
    for c in configs:
        r = ratios[c]
        print(f"{c}: geomean {math.exp(sum(map(math.log, r)) / len(r)):.3f} over the best of {','.join(best)}, "
              f"{sum(x > 1.10 for x in r)} of {len(r)} cells above 1.10")
