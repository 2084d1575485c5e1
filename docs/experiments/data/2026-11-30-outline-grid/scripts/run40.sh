#!/usr/bin/env bash
# Outlined loops on fewer blocks: the runtime tests, then a sweep of
# --outline-blocks for bfs/sssp/cc (checked answers) on the road and web
# graphs, and GAP on the same cells.
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s40 && tar -xJf s40.tar.xz -C /tmp/s40
cp REVISION "$root/REVISION"
bin=/tmp/s40/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR /tmp/r40
stamp() { echo "[$(( $(date +%s) - start )) s] $*"; }
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,power.limit --format=csv > /tmp/r40/gpu.txt
stamp tests
timeout 150 $bin/irgl_gpu_runtime_tests --gtest_filter='Outline*:AlbHandOver*:LangPipe*:Pipe*:FrontierForms*:SweptInput*' > /tmp/r40/tests.log 2>&1
echo "tests exit $?"; grep -E "PASSED|FAILED|SKIPPED" /tmp/r40/tests.log | head -20
graphs=road/minnesota.mtx.xz,road/rome99.gr.xz,road/monaco.wel.xz,road/luxembourg_osm.mtx.xz,road/usroads.mtx.xz,road/moscow_roads.txt.xz,powerlaw/ego-twitter-undirected.txt.xz,powerlaw/cnr-2000.txt.xz,powerlaw/uk-2007-05-100000.txt.xz
bench() {  # OUT-NAME BUILDS [PROGRAM-OPTIONS] [GRAPHS] [APPS]
  local left=$(( 575 - ($(date +%s) - start) ))
  [ $left -lt 30 ] && { echo "skip $1: no time"; return; }
  timeout $left python3 $root/tools/bench/irgl-bench run peers --apps ${5:-bfs,sssp,cc} --schedules $2 \
    --bin $bin --gap /tmp/s40/gap --data $data --graphs ${4:-$graphs} --out /tmp/r40/$1 \
    --work-dir /tmp/b40 --runs 7 --budget $(( left - 20 )) ${3:+--program-options "$3"} > /tmp/r40/$1.log 2>&1
  echo "$1 exit $?: $(tail -1 /tmp/r40/$1.log)"
}
stamp sweep
bench default auto,gap
for b in 1 2 8 32 100000; do bench blocks$b auto "--outline-blocks $b"; done
stamp grid
bench grid-default auto "" grid:4096x4096 sssp
for b in 8 32 128; do bench grid-blocks$b auto "--outline-blocks $b" grid:4096x4096 sssp; done
stamp done
tar -C /tmp -cJf $OUT/r40.tar.xz r40
