#!/usr/bin/env bash
# Light rounds of large graphs on one block with arrays in global memory:
# tests, the matrix (auto and off), sanitizers, and a sweep of
# --one-block-items against --outline-shared off on roads and grids.
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s74 /tmp/r74 && tar -xJf s74.tar.xz -C /tmp/s74
cp REVISION "$root/REVISION"
bin=/tmp/s74/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR
stamp() { echo "[$(( $(date +%s) - start )) s] $*"; }
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader
timeout 60 $bin/irgl_gpu_runtime_tests --gtest_filter='Outline*' > /tmp/r74/outline-tests.log 2>&1
echo "outline tests exit $?"; grep -E "^\[  (PASSED|FAILED)|FAILED  \]" /tmp/r74/outline-tests.log | head
stamp sweep
src() { $bin/irgl-graph stats --json --no-diameter --quiet "$1" 2>/dev/null | python3 -c 'import json,sys; t=sys.stdin.read(); print(json.loads(t[t.index("["):])[0]["out_degree"]["max_vertex"])'; }
for g in road/luxembourg_osm.mtx.xz road/usroads.mtx.xz road/moscow_roads.txt.xz road/moscow_roads.gr.xz road/minnesota.mtx.xz road/rome99.gr.xz grid:1000x1000; do
  case $g in grid:*) p=$g;; *) p=$data/$g;; esac
  s=$(src $p)
  for a in sssp bfs; do
    o="--source $s"; [ $a = sssp ] && case $g in *.gr.xz) ;; *) o="$o --weights=hash:100";; esac
    line="$(basename $g) $a src=$s"
    for v in off 2 256 1024 off 2 4096 256 1024 2048; do
      case $v in off) x="--outline-shared off";; 2) x="";; *) x="--one-block-items $v";; esac
      m=$(timeout 30 $bin/$a-cuda $p $o --runs 9 $x 2>&1 | sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p')
      line="$line $v=${m:-FAIL}"
    done
    echo "$line"
  done
done | tee /tmp/r74/sweep.txt
stamp matrix
APPS="bfs sssp cc kcore" JOBS=8 WORK_DIR=/tmp/w74 EXTRA_GRAPHS="grid:300x300: rmat:scale=14:" \
  timeout 200 bash $root/tools/gpu/check-examples.sh $bin $data cuda cuda@outline-shared=off cuda@one-block-items=64 > /tmp/r74/matrix.log 2>&1
echo "matrix exit $?"; tail -1 /tmp/r74/matrix.log; grep -vE "PASS|^app " /tmp/r74/matrix.log | head
stamp sanitizers
for run in "sssp-cuda road/luxembourg_osm.mtx.xz --weights=hash:100" "bfs-cuda road/usroads.mtx.xz"; do
  set -- $run; b=$1; g=$2; shift 2
  for tool in memcheck synccheck racecheck; do
    timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $bin/$b $data/$g "$@" --runs 1 > /tmp/r74/$b-$tool.log 2>&1
    echo "$b $(basename $g) $tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/r74/$b-$tool.log | tail -1)"
  done
done
stamp full-tests
timeout 150 $bin/irgl_gpu_runtime_tests > /tmp/r74/tests.log 2>&1
echo "tests exit $?"; grep -E "^\[  (PASSED|FAILED)|FAILED  \]" /tmp/r74/tests.log | head
stamp done
tar -C /tmp -cJf $OUT/r74.tar.xz r74
