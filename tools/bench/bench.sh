#!/usr/bin/env bash
# One command per table: builds every example with every schedule (and the
# instrumented ALB builds the work statistics come from), then measures the
# tables on the GPU and summarises them (docs/performance.md).
#
#   tools/bench/bench.sh [--bin DIR | --build-dir DIR] [--out DIR] TABLE... [-- OPTIONS]
#
#   --build-dir DIR  configure and build there (default: build-bench)
#   --bin DIR        use binaries built elsewhere instead (e.g. copied to a
#                    GPU machine without the Clang packages irglc needs)
#   --out DIR        results (default: bench-results): TABLE.json/.csv/.md,
#                    TABLE-logs/, summary.md and plots
#   OPTIONS          passed to every `irgl-bench run` (e.g. --runs 10)
# Tables: tools/bench/irgl-bench tables. Generated graphs are cached in
# $IRGL_CACHE_DIR (default: OUT/cache) between runs of the same command.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build_dir=$root/build-bench
bin=
out=bench-results
tables=()
while [ $# -gt 0 ]; do
  case $1 in
    --build-dir) build_dir=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --) shift; break ;;
    -*) echo "bench.sh: error: unknown option $1" >&2; exit 1 ;;
    *) tables+=("$1"); shift ;;
  esac
done
[ ${#tables[@]} -gt 0 ] || { echo "bench.sh: error: no table given (tools/bench/irgl-bench tables)" >&2; exit 1; }

if [ -z "$bin" ]; then
  instrumented=$(printf '%s:alb;' bfs sssp cc pr kcore tc spmv)
  cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DIRGL_EXAMPLE_SCHEDULES="thread;warp;block;twc;lb;merge-path;multi-phase;vwarp;dvwarp;dp;alb;auto" \
    -DIRGL_EXAMPLE_VARIANTS="$(python3 "$here/irgl-bench" cmake-variants)" \
    -DIRGL_EXAMPLE_INSTRUMENTED="${instrumented%;}" \
    -DIRGL_PARTS_SCHEDULES="$(python3 "$here/irgl-bench" parts-schedules)" > /dev/null
  cmake --build "$build_dir"
  bin=$build_dir/bin
fi
mkdir -p "$out"
export IRGL_CACHE_DIR=${IRGL_CACHE_DIR:-$out/cache}
# cuSPARSE is linked dynamically: find it where the toolkit lives.
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64
# A SIGTERM (say from `timeout`) reaches the running table, which then writes
# what it has measured; no later table starts.
child=
stopped=0
trap 'stopped=1; [ -n "$child" ] && kill -TERM "$child" 2> /dev/null' TERM INT
status=0
results=()
for table in "${tables[@]}"; do
  [ $stopped = 0 ] || break
  "$here/irgl-bench" run "$table" --bin "$bin" --out "$out" --force "$@" &
  child=$!
  wait $child || { wait $child; status=1; }
  child=
  [ -f "$out/$table.json" ] && results+=("$out/$table.json")
done
[ ${#results[@]} -gt 0 ] && { "$here/irgl-bench" report "${results[@]}" --out "$out" --force || status=1; }
exit $status
