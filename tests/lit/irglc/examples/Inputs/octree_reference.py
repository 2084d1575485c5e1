"""The octree of lang-examples/tasks/octree.irgl, built independently.

Usage: octree_reference.py COUNT CLUSTERED LEAF

Generates the same particles (in integer units of 2^-24), splits cubes
recursively with integer arithmetic, and prints the program's five results
in its output format ("result NAME: VALUE").
"""
import sys

from lang_hash import hash24

UNITS = 1 << 24
MAX_DEPTH = 20
CLUSTERS = 16
SPREAD = 581000
MASK64 = (1 << 64) - 1


def particle(i, clustered):
    units = []
    for d in range(3):
        if not clustered:
            units.append(hash24(d + 1, i))
            continue
        centre = hash24(7, i) % CLUSTERS
        middle = UNITS // 10 + hash24(31 + d, centre) * 8 // 10
        bell = sum(hash24(11 + 4 * d + k, i) * SPREAD // UNITS for k in range(4))
        at = middle + bell - 2 * SPREAD
        units.append(min(max(at, 0), UNITS - 1))
    return units


def mix(ident, path):
    x = ((ident << 32 | ident) ^ (path * 0x9E3779B97F4A7C15 & MASK64)) & MASK64
    x ^= x >> 31
    x = x * 0xBF58476D1CE4E5B9 & MASK64
    return x ^ (x >> 29)


def splits(count, depth, leaf):
    return count > leaf and depth < MAX_DEPTH


def main():
    count, clustered, leaf = int(sys.argv[1]), sys.argv[2] == "true", int(sys.argv[3])
    points = [particle(i, clustered) + [i] for i in range(count)]
    cells = leaves = placed = deepest = signature = 0
    # (corner in units, edge in units, depth, path, particles); the root is always split.
    stack = [((0, 0, 0), UNITS, 0, 1, points)]
    while stack:
        corner, size, depth, path, members = stack.pop()
        cells += 1
        half = size // 2
        octants = [[] for _ in range(8)]
        for p in members:
            o = sum((p[d] >= corner[d] + half) << d for d in range(3))
            octants[o].append(p)
        for o, inside in enumerate(octants):
            if not inside:
                continue
            child_path = path << 3 | o
            if splits(len(inside), depth + 1, leaf):
                child = tuple(corner[d] + ((o >> d) & 1) * half for d in range(3))
                stack.append((child, half, depth + 1, child_path, inside))
            else:
                leaves += 1
                placed += len(inside)
                deepest = max(deepest, depth + 1)
                for p in inside:
                    signature = (signature + mix(p[3], child_path)) & MASK64
    for name, value in [("cells", cells), ("leaves", leaves), ("placed", placed),
                        ("deepest", deepest), ("signature", signature)]:
        print(f"result {name}: {value}")


if __name__ == "__main__":
    main()
