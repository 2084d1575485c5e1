"""close_results.py A B [TOLERANCE]: the 'result NAME: VALUE' lines of two
program runs (files) name the same results, integers equal and reals
within TOLERANCE relative (default 1e-12): floating-point sums run in a
different order on each target. Prints 'close' or the first difference;
exit 1 on a difference."""
import sys


def results(path):
    found = {}
    for line in open(path):
        if line.startswith("result "):
            name, value = line[len("result "):].split(": ", 1)
            found[name] = value.strip()
    return found


def main():
    a, b = results(sys.argv[1]), results(sys.argv[2])
    tolerance = float(sys.argv[3]) if len(sys.argv) > 3 else 1e-12
    if list(a) != list(b) or not a:
        print("different results: %s against %s" % (list(a), list(b)))
        return 1
    for name in a:
        x, y = a[name], b[name]
        if x.lstrip("-").isdigit() and y.lstrip("-").isdigit():
            if int(x) != int(y):
                print("%s: %s against %s" % (name, x, y))
                return 1
        elif abs(float(x) - float(y)) > tolerance * max(abs(float(x)), abs(float(y)), 1e-300):
            print("%s: %s against %s (relative tolerance %g)" % (name, x, y, tolerance))
            return 1
    print("close")
    return 0


if __name__ == "__main__":
    sys.exit(main())
