#!/usr/bin/env bash
# Session of 2026-11-30 (second), last call: the default builds' matrix
# after outlined iterations and ALB's shared scratch in persistent
# kernels; sanitizers; pr against GAP in the peers table.
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s37 && tar -xJf s37.tar.xz -C /tmp/s37
cp REVISION /tmp/s37/bin/REVISION 2>/dev/null
bin=/tmp/s37/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR /tmp/r37
stamp() { echo "[$(( $(date +%s) - start )) s] $*"; }
stamp matrix
JOBS=8 WORK_DIR=/tmp/w37a EXTRA_GRAPHS="rmat:scale=18:" \
  timeout 230 bash $root/tools/gpu/check-examples.sh $bin $data cuda > /tmp/r37/matrix.log 2>&1
echo "matrix exit $?"; tail -1 /tmp/r37/matrix.log; grep -vE "PASS|^app " /tmp/r37/matrix.log | head -20
stamp persistent
APPS="bfs sssp cc kcore" JOBS=8 WORK_DIR=/tmp/w37b EXTRA_GRAPHS="rmat:scale=18:" \
  timeout 90 bash $root/tools/gpu/check-examples.sh $bin $data cuda@outline=persistent cuda-alb@outline=persistent > /tmp/r37/persistent.log 2>&1
echo "persistent exit $?"; tail -1 /tmp/r37/persistent.log; grep -vE "PASS|^app " /tmp/r37/persistent.log | head -20
stamp sanitizers
for tool in memcheck racecheck synccheck; do
  timeout 40 compute-sanitizer --tool $tool --error-exitcode 9 $bin/bfs-cuda-alb rmat:scale=14 --source 1 --outline persistent --runs 1 > /tmp/r37/bfs-$tool.log 2>&1
  echo "bfs-alb rmat14 persistent $tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/r37/bfs-$tool.log)"
  timeout 40 compute-sanitizer --tool $tool --error-exitcode 9 $bin/coloring-cuda $data/road/minnesota.mtx.xz --simple --runs 1 > /tmp/r37/coloring-$tool.log 2>&1
  echo "coloring minnesota $tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/r37/coloring-$tool.log)"
done | tee /tmp/r37/sanitizers.txt
stamp peers
left=$(( 560 - ($(date +%s) - start) ))
timeout $left python3 $root/tools/bench/irgl-bench run peers --apps pr --schedules auto,gap --bin $bin --gap /tmp/s37/gap \
  --data $data --out /tmp/r37/peers --work-dir /tmp/b37 --runs 7 --budget $(( left - 40 )) > /tmp/r37/peers.log 2>&1
echo "peers exit $?"; tail -3 /tmp/r37/peers.log
stamp done
tar -C /tmp -cJf $OUT/r37.tar.xz r37
