"""Every program a table of irgl-bench runs is one that bench.sh builds:
a schedule of its IRGL_EXAMPLE_SCHEDULES, an EXTRA_BUILDS entry (passed as
IRGL_EXAMPLE_VARIANTS), the cuSPARSE baseline or another example of an app
(OTHER_EXAMPLES, built with every build), a build lang-examples always makes
(ALWAYS_BUILT: the multi-GPU programs; their schedule builds come from
IRGL_PARTS_SCHEDULES); or a peer (PEER_BUILDS: GAP, which tools/bench/gap.sh
builds). Every variant a table offers is checked, run by default or not.
Prints one line per table."""
import importlib.machinery
import importlib.util
import re
import sys

bench_dir = sys.argv[1]
loader = importlib.machinery.SourceFileLoader("irgl_bench", bench_dir + "/irgl-bench")
spec = importlib.util.spec_from_loader("irgl_bench", loader)
bench = importlib.util.module_from_spec(spec)
loader.exec_module(bench)

script = open(bench_dir + "/bench.sh").read()
built = set(re.search(r'-DIRGL_EXAMPLE_SCHEDULES="([^"]*)"', script).group(1).split(";"))
if set(bench.SCHEDULES) != built:
    sys.exit("bench.sh builds %s, irgl-bench runs %s" % (sorted(built), sorted(bench.SCHEDULES)))
built |= set(bench.EXTRA_BUILDS) | {"cusparse"} | set(bench.PEER_BUILDS) | set(bench.OTHER_EXAMPLES)
built |= set(bench.ALWAYS_BUILT)
parts = re.search(r'IRGL_PARTS_SCHEDULES="\$\(python3 "\$here/irgl-bench" parts-schedules\)"', script)
if not parts:
    sys.exit("bench.sh does not build IRGL_PARTS_SCHEDULES from irgl-bench parts-schedules")
built |= {"parts-" + schedule for schedule in bench.PARTS_SCHEDULES}
for name, (_description, _graphs, _apps, builds, extra) in bench.tables().items():
    variants = extra.get("variants", {})
    # The builds a table may run: its default ones and, on request, its variants.
    runnable = set(builds) | set(variants)
    missing = sorted({variants[b][0] if b in variants else b for b in runnable} - built)
    print("%s: %s" % (name, "missing " + ",".join(missing) if missing else "all built"))
