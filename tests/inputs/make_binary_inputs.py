#!/usr/bin/env python3
"""Writes the binary and compressed test inputs under good/ and bad/.

Galois binary .gr files (version 1, little-endian):
  uint64 version, uint64 edge data size (0 or 4), uint64 nodes, uint64 edges,
  uint64 end index of each node's edges, uint32 destinations,
  uint32 padding when the edge count is odd, uint32 edge data.

The compressed files are made from the text inputs next to them. Output is
deterministic (gzip headers carry no time stamp), so rerunning this script
reproduces the committed files; the byte offsets in the expected messages of
the damaged compressed files assume the zlib/liblzma versions that made them.

Run from anywhere:  python3 tests/inputs/make_binary_inputs.py
"""
import gzip
import lzma
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
GOOD = os.path.join(HERE, "good")
BAD = os.path.join(HERE, "bad")

# The graph of good/road.gr, 0-based and grouped by source:
# (source, target, weight).
ROAD_EDGES = [(0, 1, 7), (0, 2, 2147483647), (1, 2, 1), (2, 3, 0), (3, 0, 12)]
ROAD_NODES = 4


def galois(nodes, edges, weighted=True, padding=None, version=1, edge_size=None,
           ends=None, edge_count=None):
    """A Galois .gr image; the keyword arguments override fields to damage it."""
    if ends is None:
        ends, total = [], 0
        for node in range(nodes):
            total += sum(1 for source, _, _ in edges if source == node)
            ends.append(total)
    if edge_size is None:
        edge_size = 4 if weighted else 0
    if edge_count is None:
        edge_count = len(edges)
    if padding is None:
        padding = len(edges) % 2 == 1 and weighted
    image = struct.pack("<4Q", version, edge_size, nodes, edge_count)
    image += struct.pack("<%dQ" % len(ends), *ends)
    image += struct.pack("<%dI" % len(edges), *[target for _, target, _ in edges])
    if padding:
        image += b"\0" * 4
    if weighted:
        image += struct.pack("<%di" % len(edges), *[weight for _, _, weight in edges])
    return image


def gz(data):
    return gzip.compress(data, mtime=0)


def xz(data):
    return lzma.compress(data, format=lzma.FORMAT_XZ)


def read(directory, name):
    with open(os.path.join(directory, name), "rb") as f:
        return f.read()


def write(directory, name, data):
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data)


def flip_byte(data, position):
    return data[:position] + bytes([data[position] ^ 0x55]) + data[position + 1:]


def make_good():
    write(GOOD, "galois.gr", galois(ROAD_NODES, ROAD_EDGES))
    write(GOOD, "galois.gr.gz", gz(galois(ROAD_NODES, ROAD_EDGES)))
    # Three edges, no edge data and no padding after the odd destinations.
    write(GOOD, "galois-unweighted.gr",
          galois(3, [(0, 1, 0), (0, 2, 0), (2, 0, 0)], weighted=False))
    write(GOOD, "snap.txt.gz", gz(read(GOOD, "snap.txt")))
    write(GOOD, "road.gr.gz", gz(read(GOOD, "road.gr")))
    write(GOOD, "integer.mtx.xz", xz(read(GOOD, "integer.mtx")))
    # Two gzip members, as `cat a.gz b.gz` makes; split at a line start.
    snap = read(GOOD, "snap.txt")
    middle = snap.index(b"\n", len(snap) // 2) + 1
    write(GOOD, "two-members.txt.gz", gz(snap[:middle]) + gz(snap[middle:]))


def make_bad():
    road = galois(ROAD_NODES, ROAD_EDGES)
    write(BAD, "galois-version-2.gr", galois(ROAD_NODES, ROAD_EDGES, version=2))
    write(BAD, "galois-version-7.gr", galois(ROAD_NODES, ROAD_EDGES, version=7))
    write(BAD, "galois-truncated-header.gr", road[:20])
    write(BAD, "galois-truncated.gr", road[:70])
    write(BAD, "galois-edge-data-size.gr", galois(ROAD_NODES, ROAD_EDGES, edge_size=8))
    write(BAD, "galois-too-many-nodes.gr",
          galois(5000000000, ROAD_EDGES, ends=[2, 3, 4, 5]))
    write(BAD, "galois-no-nodes.gr", galois(0, ROAD_EDGES, ends=[]))
    write(BAD, "galois-decreasing-index.gr",
          galois(ROAD_NODES, ROAD_EDGES, ends=[2, 3, 1, 5]))
    write(BAD, "galois-last-index.gr", galois(ROAD_NODES, ROAD_EDGES, ends=[2, 3, 4, 4]))
    write(BAD, "galois-destination-out-of-range.gr",
          galois(ROAD_NODES, ROAD_EDGES[:3] + [(2, 9, 0)] + ROAD_EDGES[4:]))
    write(BAD, "galois-trailing-data.gr", road + b"\0" * 8)

    mtx = read(GOOD, "pattern-general.mtx")
    write(BAD, "mtx-truncated.mtx.gz", gz(mtx)[:90])
    snap = read(GOOD, "snap.txt")
    write(BAD, "snap-truncated.txt.xz", xz(snap)[:60])
    corrupt_xz = xz(read(GOOD, "symmetric-real.mtx"))
    write(BAD, "mtx-corrupt.mtx.xz", flip_byte(corrupt_xz, 70))
    write(BAD, "el-corrupt.txt.gz", flip_byte(gz(snap), 30))
    write(BAD, "el-trailing-garbage.txt.gz", gz(snap) + b"garbage\n")
    write(BAD, "gzip-magic-only.txt.gz", b"\x1f\x8b")


if __name__ == "__main__":
    make_good()
    make_bad()
