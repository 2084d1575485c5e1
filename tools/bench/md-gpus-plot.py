#!/usr/bin/env python3
"""Paper 004's Figure 10 from irgl-md-gpus runs: each GPU's busy time per
scheme, one panel per GPU count, and the speedups over one GPU.

  md-gpus-plot.py OUT.svg RUN.json [RUN.json ...]

RUN.json: irgl-md-gpus --json files of one atom count (several schemes,
orders and GPU counts). Bars: the median busy time of each GPU over the
runs; the line above each group: the run's median wall time. Needs
matplotlib.
"""
import json
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def label(run):
    text = f"{run['scheme']}, {run['order']}"
    if run["scheme"] == "chunks":
        text += f", {run['chunk_groups']} groups"
    return text


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    runs = [json.load(open(path)) for path in sys.argv[2:]]
    atoms = {run["atoms"] for run in runs}
    if len(atoms) != 1:
        sys.exit(f"md-gpus-plot: runs of several atom counts {sorted(atoms)}")
    labels = sorted({label(run) for run in runs})
    counts = sorted({run["gpus"] for run in runs})
    one_gpu = {label(run): run["median_ms"] for run in runs if run["gpus"] == 1}
    figure, axes = plt.subplots(1, len(counts), figsize=(5 * len(counts), 4), sharey=True,
                                squeeze=False)
    for axis, count in zip(axes[0], counts):
        width = 0.8 / count
        for position, name in enumerate(labels):
            run = next((r for r in runs if r["gpus"] == count and label(r) == name), None)
            if run is None:
                continue
            for gpu in range(count):
                busy = statistics.median(r["gpus"][gpu]["busy_ms"] for r in run["runs"])
                axis.bar(position - 0.4 + width * (gpu + 0.5), busy, width,
                         color=f"C{gpu}", label=f"GPU {gpu}" if position == 0 else None)
            axis.hlines(run["median_ms"], position - 0.4, position + 0.4, colors="black")
            if name in one_gpu and count > 1:
                axis.annotate(f"{one_gpu[name] / run['median_ms']:.2f}x",
                              (position, run["median_ms"]), ha="center", va="bottom")
        axis.set_title(f"{count} GPU{'s' if count > 1 else ''}")
        axis.set_xticks(range(len(labels)))
        axis.set_xticklabels(labels, rotation=30, ha="right", fontsize=8)
        axis.set_ylabel("busy time per GPU (ms); line: run time")
        axis.legend(fontsize=8)
    figure.suptitle(f"irgl-md-gpus: {next(iter(atoms)):,} atoms on {runs[0]['gpu']} "
                    f"(speedup over 1 GPU above the bars)", fontsize=10)
    figure.tight_layout()
    figure.savefig(sys.argv[1])


if __name__ == "__main__":
    main()
