#!/usr/bin/env bash
# One-block loops of iterations (pr, mis, coloring, cc_afforest on small
# graphs), the block copy in the pipe's one-block kernel: runtime tests,
# the matrix with --outline-shared auto and off, sanitizers, timings auto
# vs off; cc_afforest on RMAT 22 against the 4b20d01 build.
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s65 /tmp/r65 && tar -xJf s65.tar.xz -C /tmp/s65
cp REVISION "$root/REVISION"
bin=/tmp/s65/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR
stamp() { echo "[$(( $(date +%s) - start )) s] $*"; }
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader
timeout 150 $bin/irgl_gpu_runtime_tests > /tmp/r65/tests.log 2>&1
echo "tests exit $?"; grep -E "^\[  (PASSED|FAILED)|FAILED  \]" /tmp/r65/tests.log | head
stamp matrix
APPS="pr mis coloring bfs sssp cc kcore scc bc" JOBS=8 WORK_DIR=/tmp/w65 EXTRA_GRAPHS="rmat:scale=14:" \
  timeout 200 bash $root/tools/gpu/check-examples.sh $bin $data cuda cuda@outline-shared=off > /tmp/r65/matrix.log 2>&1
echo "matrix exit $?"; tail -1 /tmp/r65/matrix.log; grep -vE "PASS|^app " /tmp/r65/matrix.log | head
APPS="cc" JOBS=8 WORK_DIR=/tmp/w65b timeout 60 bash $root/tools/gpu/check-examples.sh $bin $data afforest-cuda afforest-cuda@outline-shared=off > /tmp/r65/afforest.log 2>&1
echo "afforest exit $?"; tail -1 /tmp/r65/afforest.log; grep -vE "PASS|^app " /tmp/r65/afforest.log | head
stamp sanitizers
for run in "pr-cuda road/minnesota.mtx.xz" "mis-cuda road/minnesota.mtx.xz --symmetrize" "cc-afforest-cuda road/rome99.gr.xz --symmetrize" "sssp-cuda road/minnesota.mtx.xz --source 2417 --weights=hash:100"; do
  set -- $run; b=$1; g=$2; shift 2
  for tool in memcheck racecheck synccheck; do
    timeout 40 compute-sanitizer --tool $tool --error-exitcode 9 $bin/$b $data/$g "$@" --runs 1 > /tmp/r65/$b-$tool.log 2>&1
    echo "$b $(basename $g) $tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/r65/$b-$tool.log | tail -1)"
  done
done
stamp timing
for g in road/minnesota.mtx.xz road/rome99.gr.xz road/monaco.wel.xz tiny/netscience.mtx.xz tiny/karate.mtx.xz road/usroads.mtx.xz; do
  for a in pr mis coloring cc-afforest; do
    o=""; [ $a != pr ] && o="--symmetrize"
    for s in auto off; do
      out=$(timeout 30 $bin/$a-cuda $data/$g $o --runs 15 --outline-shared $s 2>&1)
      m=$(echo "$out" | sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p')
      echo "$(basename $g) $a shared=$s ${m:-FAIL} $(echo "$out" | grep -io 'iterations[^,]*' | head -1)"
    done
  done
done | tee /tmp/r65/timing.txt
stamp rmat22
for b in cc-afforest-cuda-old4b cc-afforest-cuda cc-afforest-cuda-old4b cc-afforest-cuda; do
  for o in auto off; do
    m=$(timeout 60 $bin/$b rmat:scale=22 --symmetrize --runs 9 --outline $o 2>&1 | sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p')
    echo "rmat22 $b outline=$o ${m:-FAIL}"
  done
done | tee /tmp/r65/rmat22.txt
for b in cc-afforest-cuda-old4b cc-afforest-cuda; do
  timeout 90 ncu --metrics gpu__time_duration.sum --csv $bin/$b rmat:scale=22 --symmetrize --runs 1 > /tmp/r65/ncu-$b.csv 2>&1
  echo "ncu $b exit $?"
done
stamp done
tar -C /tmp -cJf $OUT/r65.tar.xz r65
