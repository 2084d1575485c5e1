#!/usr/bin/env bash
# One-block light rounds in global memory: auto steps as merge-path (m)
# against a thread per item (t), by --one-block-items, against off.
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s76 /tmp/r76 && tar -xJf s76.tar.xz -C /tmp/s76
bin=/tmp/s76/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR
stamp() { echo "[$(( $(date +%s) - start )) s] $*"; }
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader
timeout 60 $bin/irgl_gpu_runtime_tests --gtest_filter='Outline*' > /tmp/r76/outline-tests.log 2>&1
echo "outline tests exit $?"; grep -E "^\[  (PASSED|FAILED)|FAILED  \]" /tmp/r76/outline-tests.log | head
src() { $bin/irgl-graph stats --json --no-diameter --quiet "$1" 2>/dev/null | python3 -c 'import json,sys; t=sys.stdin.read(); print(json.loads(t[t.index("["):])[0]["out_degree"]["max_vertex"])'; }
for g in road/luxembourg_osm.mtx.xz road/usroads.mtx.xz road/moscow_roads.txt.xz road/moscow_roads.gr.xz grid:1000x1000; do
  case $g in grid:*) p=$g;; *) p=$data/$g;; esac
  s=$(src $p)
  for a in sssp bfs cc kcore; do
    case $a in
      sssp) o="--source $s"; case $g in *.gr.xz) ;; *) o="$o --weights=hash:100";; esac;;
      bfs) o="--source $s";; cc) o="--symmetrize";; kcore) o="--symmetrize --simple";; esac
    line="$(basename $g) $a"
    for v in t:off m:256 m:512 m:1024 m:2048 t:256 t:off m:256 m:512 m:1024 m:2048 t:256; do
      b=${v%%:*}; n=${v#*:}; exe=$bin/$a-cuda; [ $b = t ] && exe=$bin/$a-cuda-t
      case $n in off) x="--outline-shared off";; *) x="--one-block-items $n";; esac
      m=$(timeout 30 $exe $p $o --runs 9 $x 2>&1 | sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p')
      line="$line $v=${m:-FAIL}"
    done
    echo "$line"
  done
done | tee /tmp/r76/sweep.txt
stamp matrix
APPS="bfs sssp cc kcore" JOBS=8 WORK_DIR=/tmp/w76 EXTRA_GRAPHS="grid:300x300: rmat:scale=14:" \
  timeout 200 bash $root/tools/gpu/check-examples.sh $bin $data cuda cuda@one-block-items=64 > /tmp/r76/matrix.log 2>&1
echo "matrix exit $?"; tail -1 /tmp/r76/matrix.log; grep -vE "PASS|^app " /tmp/r76/matrix.log | head
for tool in memcheck synccheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $bin/sssp-cuda $data/road/luxembourg_osm.mtx.xz --weights=hash:100 --runs 1 > /tmp/r76/sssp-$tool.log 2>&1
  echo "sssp lux $tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/r76/sssp-$tool.log | tail -1)"
done
for tool in memcheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $bin/bfs-cuda $data/road/usroads.mtx.xz --runs 1 > /tmp/r76/bfs-$tool.log 2>&1
  echo "bfs usroads $tool exit $? $(grep -E 'ERROR SUMMARY' /tmp/r76/bfs-$tool.log | tail -1)"
done
stamp full-tests
timeout 150 $bin/irgl_gpu_runtime_tests > /tmp/r76/tests.log 2>&1
echo "tests exit $?"; grep -E "^\[  (PASSED|FAILED)|FAILED  \]" /tmp/r76/tests.log | head
stamp done
tar -C /tmp -cJf $OUT/r76.tar.xz r76
