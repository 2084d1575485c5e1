#!/usr/bin/env bash
# Correctness at 22bd... (outline grid): runtime tests, the default matrix,
# persistent matrix, sanitizers (the one-block barrier included).
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s42 && tar -xJf s42.tar.xz -C /tmp/s42
cp REVISION "$root/REVISION"
bin=/tmp/s42/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR /tmp/r42
stamp() { echo "[$(( $(date +%s) - start )) s] $*"; }
stamp tests
timeout 150 $bin/irgl_gpu_runtime_tests > /tmp/r42/tests.log 2>&1
echo "tests exit $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED)" /tmp/r42/tests.log | head -20
stamp matrix
JOBS=8 WORK_DIR=/tmp/w42a EXTRA_GRAPHS="rmat:scale=18:" \
  timeout 230 bash $root/tools/gpu/check-examples.sh $bin $data cuda > /tmp/r42/matrix.log 2>&1
echo "matrix exit $?"; tail -1 /tmp/r42/matrix.log; grep -vE "PASS|^app " /tmp/r42/matrix.log | head -20
stamp persistent
APPS="bfs sssp cc kcore" JOBS=8 WORK_DIR=/tmp/w42b EXTRA_GRAPHS="rmat:scale=18:" \
  timeout 90 bash $root/tools/gpu/check-examples.sh $bin $data cuda@outline=persistent cuda-alb@outline=persistent > /tmp/r42/persistent.log 2>&1
echo "persistent exit $?"; tail -1 /tmp/r42/persistent.log; grep -vE "PASS|^app " /tmp/r42/persistent.log | head -20
stamp sanitizers
m=$data/road/minnesota.mtx.xz
for tool in memcheck racecheck synccheck; do
  left=$(( 585 - ($(date +%s) - start) )); [ $left -lt 60 ] && break
  timeout 40 compute-sanitizer --tool $tool --error-exitcode 9 $bin/bfs-cuda-alb rmat:scale=14 --source 1 --outline persistent --runs 1 > /tmp/r42/bfs-$tool.log 2>&1
  echo "bfs-alb rmat14 persistent $tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/r42/bfs-$tool.log)"
  timeout 40 compute-sanitizer --tool $tool --error-exitcode 9 $bin/sssp-cuda $m --weights=hash:100 --source 2417 --outline-blocks 1 --runs 1 > /tmp/r42/sssp1-$tool.log 2>&1
  echo "sssp minnesota one block $tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/r42/sssp1-$tool.log)"
  timeout 40 compute-sanitizer --tool $tool --error-exitcode 9 $bin/coloring-cuda $m --simple --runs 1 > /tmp/r42/coloring-$tool.log 2>&1
  echo "coloring minnesota $tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/r42/coloring-$tool.log)"
done | tee /tmp/r42/sanitizers.txt
stamp done
tar -C /tmp -cJf $OUT/r42.tar.xz r42
