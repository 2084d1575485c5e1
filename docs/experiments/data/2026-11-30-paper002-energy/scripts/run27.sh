#!/usr/bin/env bash
# Session of 2026-11-30, call 1: dp tests and sanitizers, runtime tests after
# the ALB/dp fold, the dp matrix, dp with --outline=off, table paper002 (bfs).
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s27 && tar -xJf s27.tar.xz -C /tmp/s27
bin=/tmp/s27/bin
data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/gpu.txt; cat $OUT/gpu.txt
echo "== dp unit tests"
timeout 120 $bin/irgl_gpu_dp_tests > $OUT/dp-tests.log 2>&1; echo "dp tests exit $?"; grep -E "^\[ *(OK|FAILED|PASSED) " $OUT/dp-tests.log | tail -8
echo "== runtime tests"
timeout 150 $bin/irgl_gpu_runtime_tests > $OUT/runtime-tests.log 2>&1; echo "runtime tests exit $?"; tail -3 $OUT/runtime-tests.log; grep "FAILED" $OUT/runtime-tests.log | head
for tool in memcheck synccheck racecheck; do
  echo "== $tool dp"
  timeout 70 compute-sanitizer --tool $tool --error-exitcode 9 $bin/irgl_gpu_dp_tests > $OUT/dp-$tool.log 2>&1; echo "$tool exit $?"; tail -3 $OUT/dp-$tool.log
done
echo "== dp matrix"
APPS="bfs sssp cc pr spmv kcore" JOBS=12 WORK_DIR=/tmp/m27 timeout 130 \
  $root/tools/gpu/check-examples.sh $bin $data cuda-dp > $OUT/matrix-dp.log 2>&1; echo "matrix exit $?"; tail -1 $OUT/matrix-dp.log
grep -v " PASS$" $OUT/matrix-dp.log | grep -v "^app " | head -10
echo "== dp outline off/auto against alb (bfs, medians of 7)"
{
  for graph in rmat:scale=22 $data/powerlaw/ego-twitter-undirected.txt.xz $data/road/usroads.mtx.xz; do
    for outline in auto off; do
      for build in dp alb; do
        line=$(timeout 20 $bin/bfs-cuda-$build $graph --source 0 --runs 7 --warmup 1 --outline $outline 2>&1 | grep "^time:")
        echo "$(basename $graph) outline $outline $build: $line"
      done
    done
  done
} > $OUT/outline.txt 2>&1; cat $OUT/outline.txt
left=$((565 - $(date +%s) + start))
echo "== bench bfs ($left s left)"
timeout $left python3 $root/tools/bench/irgl-bench run paper002 --bin $bin --data $data --out $OUT/bench \
  --work-dir /tmp/b27 --apps bfs --runs 5 --energy-ms 700 --budget $((left - 15)) > $OUT/bench.log 2>&1
echo "bench exit $?"; tail -30 $OUT/bench.log
