#!/usr/bin/env python3
"""compare_results.py ALGORITHM EXPECTED GOT

Compares two result files (docs/results.md) of the same program, e.g. the
CPU reference and the GPU version: the headers must agree, and the values
must be equal for integer results (bfs, sssp, cc, kcore, tc) and jaccard's
similarities (the same counts divided once on every target). Real results
are compared with irgl-check's default bounds: pr by the L1 distance
(<= 1e-4), bc entry by entry relative to the entry (|a_i - b_i| <= 1e-9 *
max(1, |a_i|): dependencies summed in another order), spmv entry by
entry relative to the largest entry
(|a_i - b_i| <= 1e-5 * max_j max(|a_j|, |b_j|) + 1e-6): a sum that cancels
to about 0 may differ in its rounding error, which irgl-check bounds by the
magnitude of the summed terms (not known here).
Prints one line saying what matched; exits 1 on a difference."""
import math
import sys

PR_L1_BOUND = 1e-4
SPMV_RELATIVE_BOUND = 1e-5
SPMV_ABSOLUTE_BOUND = 1e-6
BC_RELATIVE_BOUND = 1e-9


def read_result(path):
    header, values = {}, []
    with open(path) as lines:
        for line in lines:
            line = line.rstrip("\n")
            if line.startswith("#"):
                key, _, value = line[2:].partition(" ")
                header[key] = value
            elif line:
                values.append(line)
    return header, values


class Mismatch(Exception):
    pass


def fail(message):
    raise Mismatch(message)


def compare(algorithm, expected_path, got_path):
    """Returns a line saying what matched; raises Mismatch on a difference."""
    expected_header, expected = read_result(expected_path)
    got_header, got = read_result(got_path)
    if expected_header != got_header:
        fail("headers differ: %s vs %s" % (expected_header, got_header))
    if len(expected) != len(got):
        fail("%d values vs %d" % (len(expected), len(got)))
    if algorithm == "pr":
        l1 = sum(abs(float(a) - float(b)) for a, b in zip(expected, got))
        if not l1 <= PR_L1_BOUND:
            fail("L1 distance %g > %g" % (l1, PR_L1_BOUND))
        return "compare_results: %d values within L1 distance %g" % (len(got), l1)
    if algorithm == "bc":
        for i, (a, b) in enumerate(zip(expected, got)):
            x, y = float(a), float(b)
            if not abs(x - y) <= BC_RELATIVE_BOUND * max(1.0, abs(x)):
                fail("value %d: %s vs %s (relative bound %g)" % (i, a, b, BC_RELATIVE_BOUND))
        return "compare_results: %d values agree" % len(got)
    if algorithm == "spmv":
        pairs = [(float(a), float(b)) for a, b in zip(expected, got)]
        largest = max([max(abs(x), abs(y)) for x, y in pairs if not math.isinf(x)] or [0])
        allowed = SPMV_RELATIVE_BOUND * largest + SPMV_ABSOLUTE_BOUND
        for i, (x, y) in enumerate(pairs):
            if not (abs(x - y) <= allowed or (math.isinf(x) and x == y)):
                fail("value %d: %s vs %s (allowed difference %g)"
                     % (i, expected[i], got[i], allowed))
        return "compare_results: %d values agree" % len(got)
    for i, (a, b) in enumerate(zip(expected, got)):
        if a != b:
            fail("value %d: %s vs %s" % (i, a, b))
    return "compare_results: %d values equal" % len(got)


def main():
    try:
        print(compare(*sys.argv[1:4]))
    except Mismatch as mismatch:
        print("compare_results: %s" % mismatch)
        sys.exit(1)


if __name__ == "__main__":
    main()
