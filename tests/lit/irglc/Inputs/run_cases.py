#!/usr/bin/env python3
"""run_cases.py --data DIR --datasets DIR [--reference PROGRAM] ALGORITHM PROGRAM CASES [EXTRA...]

Runs run_and_check.py for every case of CASES, a file with one case a line:

    GRAPH [ARGS...]        # ARGS as for run_and_check.py (::program, ::check)

EXTRA arguments are appended to every case (e.g. `::program --runs 2`).

'#' starts a comment; %data and %datasets in a case are the directories
given. Prints each case's verdict lines, then 'run_cases: N cases passed'.
Runs every case; exits 1 when any failed (naming them at the end)."""
import argparse
import os
import shlex
import subprocess
import sys

RUN_AND_CHECK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "run_and_check.py")


def read_cases(path, data, datasets):
    cases = []
    with open(path) as lines:
        for line in lines:
            line = line.split("#", 1)[0].strip()
            if line:
                line = line.replace("%datasets", datasets).replace("%data", data)
                cases.append(shlex.split(line))
    return cases


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", required=True)
    parser.add_argument("--datasets", required=True)
    parser.add_argument("--reference")
    parser.add_argument("algorithm")
    parser.add_argument("program")
    parser.add_argument("cases")
    parser.add_argument("extra", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    cases = read_cases(options.cases, options.data, options.datasets)
    if not cases:
        sys.exit("run_cases: no cases in " + options.cases)
    reference = ["--reference", options.reference] if options.reference else []
    failed = []
    for case in cases:
        print("case: " + " ".join(case), flush=True)
        completed = subprocess.run([sys.executable, RUN_AND_CHECK] + reference +
                                   [options.algorithm, options.program] + case + options.extra)
        if completed.returncode != 0:
            failed.append(" ".join(case))
    sys.stdout.flush()
    if failed:
        sys.exit("run_cases: %d of %d cases failed:\n  %s"
                 % (len(failed), len(cases), "\n  ".join(failed)))
    print("run_cases: %d cases passed" % len(cases))


if __name__ == "__main__":
    main()
