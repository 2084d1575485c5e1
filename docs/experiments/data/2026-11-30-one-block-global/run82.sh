#!/usr/bin/env bash
# Chained warp rounds (runtime): tests, the matrix, sanitizers on the new
# test, and the push path's cost against fb02822's builds (prev).
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s82 /tmp/r82 && tar -xJf s82.tar.xz -C /tmp/s82
cp REVISION "$root/REVISION"
bin=/tmp/s82/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR
stamp() { echo "[$(( $(date +%s) - start )) s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 60 $bin/irgl_gpu_runtime_tests --gtest_filter='Outline.Chained*' > /tmp/r82/chain-test.log 2>&1
echo "chain test exit $?"; grep -E "^\[  (PASSED|FAILED)|FAILED  \]|Failure|Expected|Which|actual" /tmp/r82/chain-test.log | head -20
for tool in memcheck racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $bin/irgl_gpu_runtime_tests --gtest_filter='Outline.Chained*' > /tmp/r82/chain-$tool.log 2>&1
  echo "chain test $tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/r82/chain-$tool.log | tail -1)"
done
stamp tests
timeout 150 $bin/irgl_gpu_runtime_tests > /tmp/r82/tests.log 2>&1
echo "tests exit $?"; grep -E "^\[  (PASSED|FAILED)|FAILED  \]" /tmp/r82/tests.log | head
stamp matrix
APPS="bfs sssp cc kcore" JOBS=8 WORK_DIR=/tmp/w82 EXTRA_GRAPHS="grid:300x300: rmat:scale=14:" \
  timeout 150 bash $root/tools/gpu/check-examples.sh $bin $data cuda > /tmp/r82/matrix.log 2>&1
echo "matrix exit $?"; tail -1 /tmp/r82/matrix.log; grep -vE "PASS|^app " /tmp/r82/matrix.log | head
stamp timing
for spec in "road/luxembourg_osm.mtx.xz 6397" "road/usroads.mtx.xz 58610" "powerlaw/cnr-2000.txt.xz 217849" "rmat:scale=20 0"; do
  set -- $spec; g=$1; s=$2; case $g in *:*) p=$g;; *) p=$data/$g;; esac
  for a in sssp bfs; do
    o="--source $s"; [ $a = sssp ] && o="$o --weights=hash:100"
    line="$(basename $g) $a"
    for b in cuda-prev cuda cuda-prev cuda; do
      m=$(timeout 30 $bin/$a-$b $p $o --runs 9 2>&1 | sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p')
      line="$line $b=${m:-FAIL}"
    done
    echo "$line"
  done
done | tee /tmp/r82/timing.txt
stamp done
tar -C /tmp -cJf $OUT/r82.tar.xz r82
