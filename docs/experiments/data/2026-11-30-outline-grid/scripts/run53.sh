#!/usr/bin/env bash
# TWC's block bin through run_edges_strided (BlockTile): runtime tests,
# the default and twc matrix, bfs_do (settling) under auto and twc, racecheck.
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s53 && tar -xJf s53.tar.xz -C /tmp/s53
cp REVISION "$root/REVISION"
bin=/tmp/s53/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR /tmp/r53
stamp() { echo "[$(( $(date +%s) - start )) s] $*"; }
timeout 100 $bin/irgl_gpu_runtime_tests > /tmp/r53/tests.log 2>&1
echo "tests exit $?"; grep -E "^\[  (PASSED|FAILED)" /tmp/r53/tests.log
stamp matrix
APPS="bfs sssp cc kcore pr" JOBS=8 WORK_DIR=/tmp/w53a EXTRA_GRAPHS="rmat:scale=18:" timeout 90 bash $root/tools/gpu/check-examples.sh $bin $data cuda cuda-twc > /tmp/r53/matrix.log 2>&1
echo "matrix exit $?"; tail -1 /tmp/r53/matrix.log; grep -vE "PASS|^app " /tmp/r53/matrix.log | head
APPS="bfs" JOBS=8 WORK_DIR=/tmp/w53b EXTRA_GRAPHS="rmat:scale=18:" timeout 30 bash $root/tools/gpu/check-examples.sh $bin $data do-cuda do-cuda-twc > /tmp/r53/bfs-do.log 2>&1
echo "bfs_do exit $?"; tail -1 /tmp/r53/bfs-do.log; grep -vE "PASS|^app " /tmp/r53/bfs-do.log | head
stamp sanitizers
timeout 45 compute-sanitizer --tool racecheck --error-exitcode 9 $bin/bfs-do-cuda-twc $data/powerlaw/musae_git_edges.csv.xz --symmetrize --runs 1 > /tmp/r53/do-twc-racecheck.log 2>&1
echo "bfs_do twc musae racecheck exit $? $(grep -E 'RACECHECK SUMMARY' /tmp/r53/do-twc-racecheck.log)"
timeout 30 compute-sanitizer --tool synccheck --error-exitcode 9 $bin/cc-cuda-twc $data/powerlaw/musae_git_edges.csv.xz --symmetrize --runs 1 > /tmp/r53/cc-twc-synccheck.log 2>&1
echo "cc twc musae synccheck exit $? $(grep -E 'ERROR SUMMARY' /tmp/r53/cc-twc-synccheck.log)"
stamp done
tar -C /tmp -cJf $OUT/r53.tar.xz r53
