#!/usr/bin/env python3
"""load_totals.py REPORT

Sums a load report (a generated program's --load-report JSON, written by
write_load_log in runtime/src/gpu/schedule/load_log.cu) over thread blocks and over
the phases of each launch, and prints the edges processed, in order of first
appearance:

    KERNEL launch N: E edges       (one line per launch, N from 0)
    KERNEL total: E edges          (one line per kernel, after its launches)

Every schedule must count each edge a launch processes exactly once, whatever
path (thread, group, TWC bins, huge, edge-parallel) took it. As in
tools/plot-load.py (docs/schedules.md), a record of a second phase of a
launch (huge, edges, merge-path) joins the kernel's launch before it; any
other record starts a new launch."""
import json
import sys

LATER_PHASES = {"huge", "edges", "merge-path"}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as report:
        records = json.load(report)["records"]
    launches = {}  # kernel -> edges of each launch, kernels in order of appearance
    for record in records:
        edges = launches.setdefault(record["kernel"], [])
        if record["phase"] not in LATER_PHASES or not edges:
            edges.append(0)
        edges[-1] += sum(record["block_edges"])
    for kernel, edges in launches.items():
        for launch, count in enumerate(edges):
            print(f"{kernel} launch {launch}: {count} edges")
        print(f"{kernel} total: {sum(edges)} edges")


if __name__ == "__main__":
    main()
