#!/usr/bin/env python3
"""Thread-block load of instrumented irgl schedules (paper 001, figures 1, 5).

Reads the load logs that programs built with `irglc --instrument=load` write
with `--load-report FILE`, from one or more runs (say a TWC build and an ALB
build of the same program), and for chosen launches (rounds) of one kernel
prints a summary and optionally draws the edges each thread block processed:
one panel per launch, one series per log; a launch made of several phases
(ALB: "twc" then "huge") shows the phases stacked and their total.

  plot-load.py twc.json alb.json --label TWC --label ALB --kernel sssp \\
      [--launches 0,1,2 | all] [-o load.png [--force]]

Without --launches, the three launches with the most edges (over all logs).
The summary gives per launch and log: blocks, total edges, the imbalance
(largest block load / mean block load) and vertices per path. Exit status: 0,
1 for bad input or options (one line on stderr), 77 when a plot is asked for
but matplotlib is missing (the summary is printed first).
"""

import argparse
import json
import os
import sys
import tempfile

PROG = "plot-load.py"
# Phases that continue the launch begun by the record before them (the
# edge-balanced kernels after ALB's TWC kernel or LB's gather kernel).
CONTINUING_PHASES = ("huge", "edges", "merge-path")
DEFAULT_LAUNCHES = 3


class InputError(Exception):
    """A problem with the input files or options: one line, exit status 1."""


class MatplotlibMissing(Exception):
    """A plot was asked for but matplotlib cannot be imported: exit 77."""


# ---------------------------------------------------------------------------
# Reading the logs
# ---------------------------------------------------------------------------

def _is_count(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _check_record(path, index, record):
    """Raises InputError unless `record` has the fields write_load_log writes."""
    where = "%s: record %d" % (path, index)
    if not isinstance(record, dict):
        raise InputError("%s: not an object" % where)
    for key, kind in (("kernel", str), ("phase", str)):
        if not isinstance(record.get(key), kind):
            raise InputError("%s: missing or non-string '%s'" % (where, key))
    if not _is_count(record.get("launch")):
        raise InputError("%s: 'launch' is not a non-negative integer" % where)
    paths = record.get("paths")
    if not isinstance(paths, dict) or not all(
            isinstance(k, str) and _is_count(v) for k, v in paths.items()):
        raise InputError("%s: 'paths' is not an object of vertex counts" % where)
    edges = record.get("block_edges")
    if not isinstance(edges, list) or not all(_is_count(e) for e in edges):
        raise InputError("%s: 'block_edges' is not a list of edge counts" % where)


def read_log(path):
    """The records of one load log, validated."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as error:
        raise InputError("%s: %s" % (path, error.strerror or error))
    except UnicodeDecodeError:
        raise InputError("%s: not a text file" % path)
    try:
        log = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError("%s:%d: malformed JSON: %s" % (path, error.lineno, error.msg))
    if not isinstance(log, dict) or not isinstance(log.get("records"), list):
        raise InputError("%s: not a load log (expected {\"records\": [...]})" % path)
    for index, record in enumerate(log["records"]):
        _check_record(path, index, record)
    return log["records"]


class Launch:
    """One launch (round) of a kernel: its phases' per-block edges and the
    vertices that took each path."""

    def __init__(self, index):
        self.index = index
        self.phases = []  # [(phase, block_edges)], in launch order
        self.paths = {}

    def add(self, record):
        self.phases.append((record["phase"], record["block_edges"]))
        for path, vertices in record["paths"].items():
            self.paths[path] = self.paths.get(path, 0) + vertices

    def blocks(self):
        return max((len(edges) for _, edges in self.phases), default=0)

    def phase_edges(self, phase_index):
        """The phase's edges per block, padded to the launch's block count."""
        edges = self.phases[phase_index][1]
        return edges + [0] * (self.blocks() - len(edges))

    def block_totals(self):
        totals = [0] * self.blocks()
        for _, edges in self.phases:
            for block, count in enumerate(edges):
                totals[block] += count
        return totals

    def total(self):
        return sum(self.block_totals())

    def imbalance(self):
        """Largest block load over the mean block load; None without edges."""
        totals = self.block_totals()
        total = sum(totals)
        return max(totals) * len(totals) / total if total else None

    def loaded_phases(self):
        """Indices of the phases that processed edges."""
        return [i for i, (_, edges) in enumerate(self.phases) if any(edges)]


def kernel_launches(path, records, kernel):
    """The launches of `kernel` in one log, in order."""
    launches = []
    for index, record in enumerate(records):
        if record["kernel"] != kernel:
            continue
        if record["phase"] in CONTINUING_PHASES:
            if not launches:
                raise InputError("%s: record %d: phase '%s' of kernel '%s' without a launch "
                                 "before it" % (path, index, record["phase"], kernel))
        else:
            launches.append(Launch(len(launches)))
        launches[-1].add(record)
    return launches


def kernels_in(records):
    return sorted({record["kernel"] for record in records})


def choose_kernel(logs, requested):
    """The kernel to show: `requested`, or the only kernel of the logs."""
    if requested is not None:
        for path, records in logs:
            if requested not in kernels_in(records):
                raise InputError("%s: no records of kernel '%s' (kernels: %s)" % (
                    path, requested, ", ".join(kernels_in(records)) or "none"))
        return requested
    every = sorted({k for _, records in logs for k in kernels_in(records)})
    if not every:
        raise InputError("%s: no records" % logs[0][0])
    if len(every) > 1:
        raise InputError("several kernels (%s): choose one with --kernel" % ", ".join(every))
    return every[0]


def choose_launches(series, requested):
    """Launch indices to show: `requested` ("all", "0,2,5") or the
    DEFAULT_LAUNCHES with the most edges over all logs, in launch order."""
    count = max(len(launches) for _, launches in series)
    if requested == "all":
        return list(range(count))
    if requested is not None:
        try:
            chosen = sorted({int(word) for word in requested.split(",")})
        except ValueError:
            raise InputError("--launches: expected 'all' or numbers like 0,2,5, got '%s'"
                             % requested)
        for index in chosen:
            if not 0 <= index < count:
                raise InputError("--launches: no launch %d (the kernel has launches 0 to %d)"
                                 % (index, count - 1))
        return chosen
    def edges(index):
        return sum(launches[index].total() for _, launches in series if index < len(launches))
    by_edges = sorted(range(count), key=lambda index: (-edges(index), index))
    return sorted(by_edges[:DEFAULT_LAUNCHES])


# ---------------------------------------------------------------------------
# Summary
# ---------------------------------------------------------------------------

def describe(launch):
    """One summary line for a launch of one log."""
    imbalance = launch.imbalance()
    text = "%d blocks, %d edges, max/mean %s" % (
        launch.blocks(), launch.total(), "-" if imbalance is None else "%.2f" % imbalance)
    loaded = launch.loaded_phases()
    if len(loaded) > 1:
        text += " [%s]" % " + ".join(
            "%s %d" % (launch.phases[i][0], sum(launch.phases[i][1])) for i in loaded)
    paths = ["%s=%d" % (path, n) for path, n in sorted(launch.paths.items()) if n]
    return text + ", vertices " + (" ".join(paths) if paths else "none")


def print_summary(kernel, series, chosen, out):
    for label, launches in series:
        out.write("%s: %d launches of kernel '%s'\n" % (label, len(launches), kernel))
    for index in chosen:
        out.write("launch %d\n" % index)
        for label, launches in series:
            line = describe(launches[index]) if index < len(launches) else "no such launch"
            out.write("  %s: %s\n" % (label, line))


# ---------------------------------------------------------------------------
# Plot
# ---------------------------------------------------------------------------

def import_pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as pyplot
    except ImportError:
        raise MatplotlibMissing()
    return pyplot


def draw_launch(axes, index, series, colors):
    """One panel: each log's block loads; stacked phases and their total when
    a launch of that log has several loaded phases."""
    for (label, launches), color in zip(series, colors):
        if index >= len(launches):
            continue
        launch = launches[index]
        blocks = list(range(launch.blocks()))
        loaded = launch.loaded_phases()
        if len(loaded) > 1:
            below = [0] * launch.blocks()
            for step, phase_index in enumerate(loaded):
                above = [b + e for b, e in zip(below, launch.phase_edges(phase_index))]
                axes.fill_between(blocks, below, above, step="mid", color=color,
                                  alpha=0.2 + 0.25 * step, linewidth=0,
                                  label="%s: %s" % (label, launch.phases[phase_index][0]))
                below = above
            axes.step(blocks, below, where="mid", color=color, linewidth=1,
                      label="%s: total" % label)
        else:
            axes.step(blocks, launch.block_totals(), where="mid", color=color, linewidth=1,
                      label=label)
    axes.xaxis.get_major_locator().set_params(integer=True)
    axes.set_title("launch %d" % index, fontsize="medium")
    axes.set_ylabel("edges")
    axes.set_ylim(bottom=0)
    axes.legend(fontsize="small", loc="upper right")


def current_umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_plot(kernel, series, chosen, output):
    """Draws the panels into `output` (a PNG), through a temporary file in the
    same directory renamed on success, so no partial file is left."""
    pyplot = import_pyplot()
    figure, panels = pyplot.subplots(len(chosen), 1, squeeze=False,
                                     figsize=(10, 2.8 * len(chosen) + 0.6))
    colors = pyplot.rcParams["axes.prop_cycle"].by_key()["color"]
    colors = [colors[i % len(colors)] for i in range(len(series))]
    for row, index in enumerate(chosen):
        draw_launch(panels[row][0], index, series, colors)
    panels[-1][0].set_xlabel("thread block")
    figure.suptitle("edges per thread block: kernel '%s'" % kernel)
    figure.tight_layout()
    directory = os.path.dirname(os.path.abspath(output))
    handle, temporary = tempfile.mkstemp(prefix=".plot-load-", suffix=".png", dir=directory)
    try:
        with os.fdopen(handle, "wb") as f:
            figure.savefig(f, format="png", dpi=100)
        os.chmod(temporary, 0o666 & ~current_umask())  # mkstemp makes it private
        os.replace(temporary, output)
    except BaseException:
        os.unlink(temporary)
        raise
    finally:
        pyplot.close(figure)


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        prog=PROG, description="Thread-block load of instrumented irgl schedules.")
    parser.add_argument("logs", nargs="+", metavar="LOG",
                        help="load log (JSON) written by a program's --load-report")
    parser.add_argument("--label", action="append",
                        help="name of a log's series, once per log in order (default: "
                             "the file name without .json)")
    parser.add_argument("--kernel", help="the kernel to show (needed when a log has several)")
    parser.add_argument("--launches",
                        help="launches to show: 'all' or numbers like 0,2,5 (default: the %d "
                             "with the most edges)" % DEFAULT_LAUNCHES)
    parser.add_argument("-o", "--output", help="write the plot to this PNG file")
    parser.add_argument("--force", action="store_true", help="replace an existing output file")
    return parser.parse_args(argv)


def check_output(output, force):
    if os.path.exists(output) and not force:
        raise InputError("%s: exists (use --force to replace it)" % output)
    directory = os.path.dirname(os.path.abspath(output))
    if not os.path.isdir(directory):
        raise InputError("%s: no such directory" % directory)


def labels_for(paths, labels):
    if labels is None:
        return [os.path.splitext(os.path.basename(path))[0] for path in paths]
    if len(labels) != len(paths):
        raise InputError("--label: %d labels for %d logs (give one per log)"
                         % (len(labels), len(paths)))
    return labels


def run(argv):
    args = parse_arguments(argv)
    labels = labels_for(args.logs, args.label)
    if args.output:
        check_output(args.output, args.force)
    logs = [(path, read_log(path)) for path in args.logs]
    kernel = choose_kernel(logs, args.kernel)
    series = [(label, kernel_launches(path, records, kernel))
              for label, (path, records) in zip(labels, logs)]
    chosen = choose_launches(series, args.launches)
    print_summary(kernel, series, chosen, sys.stdout)
    if args.output:
        sys.stdout.flush()
        write_plot(kernel, series, chosen, args.output)
        print("plot %s" % args.output)
    return 0


def main(argv):
    try:
        return run(argv)
    except InputError as error:
        sys.stderr.write("%s: %s\n" % (PROG, error))
        return 1
    except MatplotlibMissing:
        sys.stderr.write("%s: matplotlib is not installed for %s: no plot written (install "
                         "python3-matplotlib, or run the script with a Python that has it)\n"
                         % (PROG, sys.executable))
        return 77


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
