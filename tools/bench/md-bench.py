#!/usr/bin/env python3
"""Paper 004's molecular dynamics: its atom-decomposition alternatives,
run by lang-examples/tasks/md_forces.irgl on one GPU.

  md-bench.py MD_FORCES_CUDA OUT.json [--counts 32768,...] [--runs 5]

MD_FORCES_CUDA: md_forces.irgl built for the GPU, best with
`irglc --block-threads 128` (the paper's blocks of 128 threads, a group of
128 atoms each). Each row is one of the paper's solutions (section 5):

  random, a block per group   Solution 2: the atoms in random order (as
                              generated), one block per group of 128,
                              the hardware's block scheduler
  sorted, a block per group   Solution 1: decomposition sort, then the same
  sorted, task queue          the paper's task queue: decomposition sort,
                              resident blocks taking groups from one queue
                              with a fetch-and-add (nonblocking-queue)
  random, task queue          the same without the sort
  sorted, work stealing       paper 003's deques instead of the queue
  sorted, chunks of 15,360    Solution 3: decomposition sort, a launch per
                              chunk of 120 x 128 atoms (the paper's best
                              size on its 30-SM GPU), one after another
  sorted, chunks of a wave    the same with chunks of as many groups as
                              the queue's kernel keeps resident

Times: the force computation alone (the `task pool forces` line of the
last run; the paper leaves the sort out too) and the whole run (placing,
sorting and its check included), medians of --runs runs after a warm-up.
Prints a Markdown table; OUT.json holds every run's output.
"""
import argparse
import json
import re
import subprocess
import sys

GROUP = 128
CHUNK = 120 * GROUP  # paper 004's chunks

CONFIGS = [
    ("random, a block per group", [], "static", "groups"),
    ("sorted, a block per group", ["--sort", "true"], "static", "groups"),
    ("sorted, task queue", ["--sort", "true"], "nonblocking-queue", None),
    ("random, task queue", [], "nonblocking-queue", None),
    ("sorted, work stealing", ["--sort", "true"], "work-stealing", None),
    ("sorted, chunks of 15,360", ["--sort", "true"], "static", CHUNK // GROUP),
    ("sorted, chunks of a wave", ["--sort", "true"], "static", "wave"),
]

POOL_LINE = re.compile(r"^task pool forces: .*, ([0-9.]+) ms", re.M)
POOL_BLOCKS = re.compile(r"^task pool forces: .* (\d+) blocks x", re.M)
TOTAL_LINE = re.compile(r"^time: median ([0-9.]+) ms", re.M)
DEVICE_LINE = re.compile(r"^program .*, target \w+ on (.+)$", re.M)
RESULT_LINE = re.compile(r"^result (\w+): (\S+)$", re.M)


# blocks: "groups" (a block per group), a number of blocks, each running a
# group per launch of a chunk of that many groups, or None (resident).
def run(program, count, extra, scheme, blocks, runs):
    command = [program, "--count", str(count), "--group", str(GROUP), *extra,
               "--task-pool", scheme, "--runs", str(runs), "--warmup", "1"]
    if blocks == "groups":
        command += ["--task-blocks", str((count + GROUP - 1) // GROUP)]
    elif blocks is not None:
        command += ["--task-blocks", str(blocks), "--chunk", str(blocks * GROUP)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    output = done.stdout + done.stderr
    if done.returncode != 0:
        sys.exit(f"md-bench: {' '.join(command)} failed ({done.returncode}):\n{output}")
    pool, total = POOL_LINE.search(output), TOTAL_LINE.search(output)
    if not pool or not total:
        sys.exit(f"md-bench: no pool or time line from {' '.join(command)}:\n{output}")
    return dict(command=" ".join(command), forces_ms=float(pool.group(1)),
                blocks=int(POOL_BLOCKS.search(output).group(1)),
                total_ms=float(total.group(1)), results=dict(RESULT_LINE.findall(output)),
                output=output)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("program")
    parser.add_argument("out")
    parser.add_argument("--counts", default="32768,65536,131072,262144,524288")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    counts = [int(c) for c in args.counts.split(",")]
    rows = []
    for count in counts:
        resident = None  # the queue's resident blocks, for chunks of a wave
        for name, extra, scheme, blocks in CONFIGS:
            if blocks == "wave":
                blocks = resident
            row = run(args.program, count, extra, scheme, blocks, args.runs)
            if scheme == "nonblocking-queue":
                resident = row["blocks"]
            row.update(count=count, config=name)
            rows.append(row)
            print(f"{count:>7} {name:<28} forces {row['forces_ms']:9.3f} ms, "
                  f"run {row['total_ms']:9.3f} ms", file=sys.stderr, flush=True)
    # Every configuration must give the same pairs (exact) as the first.
    for count in counts:
        pairs = {r["results"].get("pairs") for r in rows if r["count"] == count}
        if len(pairs) != 1:
            sys.exit(f"md-bench: {count} atoms: the configurations count different pairs {pairs}")
    device = DEVICE_LINE.search(rows[0]["output"])
    gpu = device.group(1) if device else "?"
    with open(args.out, "w") as out:
        json.dump(dict(gpu=gpu, group=GROUP, rows=rows), out, indent=1)
    print(f"GPU: {gpu}; force computation in ms, the fastest in bold "
          f"(whole run in parentheses)\n")
    print("| atoms | " + " | ".join(name for name, *_ in CONFIGS) + " |")
    print("|---|" + "---|" * len(CONFIGS))
    for count in counts:
        cells = [r for r in rows if r["count"] == count]
        best = min(r["forces_ms"] for r in cells)
        print(f"| {count:,} | " + " | ".join(
            ("**{:.2f}**" if r["forces_ms"] == best else "{:.2f}").format(r["forces_ms"]) +
            f" ({r['total_ms']:.2f})" for r in cells) + " |")


if __name__ == "__main__":
    main()
