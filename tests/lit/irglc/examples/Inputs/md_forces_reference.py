"""The results of lang-examples/tasks/md_forces.irgl, computed independently.

Usage: md_forces_reference.py COUNT [CUTOFF]

Places the same atoms (integer units of box / 2^24, the program's default
box) and sums the Lennard-Jones and Coulomb terms over every ordered pair
closer than the cutoff, pairs closer than 0.8 taken at 0.8; prints the
program's three results ("result NAME: VALUE")."""
import math
import sys

from lang_hash import hash24

UNITS = 1 << 24
CLOSEST2 = 0.64


def atom(i, box):
    at = []
    for d in range(3):
        units = sum(hash24(5 + 4 * d + k, i) for k in range(4))
        units = int((units - 2 * UNITS) / 3) + UNITS // 2  # C++ division truncates toward 0
        units = min(max(units, 0), UNITS - 1)
        at.append(float(units) * (box / UNITS))
    return at + [-1.0 if i % 2 else 1.0]


def main():
    count = int(sys.argv[1])
    cutoff = float(sys.argv[2]) if len(sys.argv) > 2 else 2.5
    box = (8.0 * count) ** (1.0 / 3.0)
    atoms = [atom(i, box) for i in range(count)]
    energy = norms = 0.0
    pairs = 0
    for i, a in enumerate(atoms):
        fx = fy = fz = potential = 0.0
        for j, b in enumerate(atoms):
            dx, dy, dz = a[0] - b[0], a[1] - b[1], a[2] - b[2]
            distance2 = dx * dx + dy * dy + dz * dz
            if j == i or distance2 >= cutoff * cutoff:
                continue
            r2 = max(distance2, CLOSEST2)
            inverse2 = 1 / r2
            inverse6 = inverse2 * inverse2 * inverse2
            inverse = math.sqrt(inverse2)
            coulomb = a[3] * b[3] * inverse
            scale = 24 * inverse6 * (2 * inverse6 - 1) * inverse2 + coulomb * inverse2
            fx += scale * dx
            fy += scale * dy
            fz += scale * dz
            potential += 4 * inverse6 * (inverse6 - 1) + coulomb
            pairs += 1
        energy += potential / 2
        norms += fx * fx + fy * fy + fz * fz
    print("result energy: %r" % energy)
    print("result pairs: %d" % pairs)
    print("result force_norms: %r" % norms)


if __name__ == "__main__":
    main()
