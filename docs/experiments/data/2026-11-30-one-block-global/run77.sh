#!/usr/bin/env bash
# One-block light rounds in global memory, the grid's kernel following the
# one-block kernel without a look from the host (n: this build, default
# 256 items) against the r74 build (t) at 256 items and off.
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s77 /tmp/r77 && tar -xJf s77.tar.xz -C /tmp/s77
bin=/tmp/s77/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR
stamp() { echo "[$(( $(date +%s) - start )) s] $*"; }
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader
timeout 60 $bin/irgl_gpu_runtime_tests --gtest_filter='Outline*' > /tmp/r77/outline-tests.log 2>&1
echo "outline tests exit $?"; grep -E "^\[  (PASSED|FAILED)|FAILED  \]" /tmp/r77/outline-tests.log | head
src() { $bin/irgl-graph stats --json --no-diameter --quiet "$1" 2>/dev/null | python3 -c 'import json,sys; t=sys.stdin.read(); print(json.loads(t[t.index("["):])[0]["out_degree"]["max_vertex"])'; }
for g in road/luxembourg_osm.mtx.xz road/usroads.mtx.xz road/moscow_roads.txt.xz road/moscow_roads.gr.xz grid:1000x1000 road/minnesota.mtx.xz road/rome99.gr.xz; do
  case $g in grid:*) p=$g;; *) p=$data/$g;; esac
  s=$(src $p)
  for a in sssp bfs cc kcore; do
    case $a in
      sssp) o="--source $s"; case $g in *.gr.xz) ;; *) o="$o --weights=hash:100";; esac;;
      bfs) o="--source $s";; cc) o="--symmetrize";; kcore) o="--symmetrize --simple";; esac
    line="$(basename $g) $a"
    for v in t:off n:auto t:256 t:off n:auto t:256; do
      b=${v%%:*}; n=${v#*:}; exe=$bin/$a-cuda; [ $b = t ] && exe=$bin/$a-cuda-t
      case $n in off) x="--outline-shared off";; auto) x="";; *) x="--one-block-items $n";; esac
      m=$(timeout 30 $exe $p $o --runs 9 $x 2>&1 | sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p')
      line="$line $v=${m:-FAIL}"
    done
    echo "$line"
  done
done | tee /tmp/r77/sweep.txt
stamp matrix
APPS="bfs sssp cc kcore" JOBS=8 WORK_DIR=/tmp/w77 EXTRA_GRAPHS="grid:300x300: rmat:scale=14:" \
  timeout 200 bash $root/tools/gpu/check-examples.sh $bin $data cuda cuda@one-block-items=64 > /tmp/r77/matrix.log 2>&1
echo "matrix exit $?"; tail -1 /tmp/r77/matrix.log; grep -vE "PASS|^app " /tmp/r77/matrix.log | head
for tool in memcheck synccheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $bin/sssp-cuda $data/road/luxembourg_osm.mtx.xz --weights=hash:100 --runs 1 > /tmp/r77/sssp-$tool.log 2>&1
  echo "sssp lux $tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/r77/sssp-$tool.log | tail -1)"
done
for tool in memcheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $bin/kcore-cuda $data/road/usroads.mtx.xz --symmetrize --simple --runs 1 > /tmp/r77/kcore-$tool.log 2>&1
  echo "kcore usroads $tool exit $? $(grep -E 'ERROR SUMMARY' /tmp/r77/kcore-$tool.log | tail -1)"
done
stamp full-tests
timeout 150 $bin/irgl_gpu_runtime_tests > /tmp/r77/tests.log 2>&1
echo "tests exit $?"; grep -E "^\[  (PASSED|FAILED)|FAILED  \]" /tmp/r77/tests.log | head
stamp done
tar -C /tmp -cJf $OUT/r77.tar.xz r77
