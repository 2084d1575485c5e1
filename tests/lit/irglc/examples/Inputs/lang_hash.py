"""hash24(seed, i), the integer hash that lang-examples/tasks/octree.irgl and
md_forces.irgl place their particles and atoms with, in 32-bit arithmetic:
the independent references (octree_reference.py, md_forces_reference.py)
place them the same way."""

MASK32 = (1 << 32) - 1


def hash24(seed, i):
    x = ((seed * 0x9E3779B9) & MASK32) ^ (((i + 0x7F4A7C15) & MASK32) * 0x85EBCA6B & MASK32)
    x ^= x >> 16
    x = x * 0x7FEB352D & MASK32
    x ^= x >> 15
    x = x * 0x846CA68B & MASK32
    x ^= x >> 16
    return x >> 8
