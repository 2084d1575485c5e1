#!/usr/bin/env bash
# The peer table's road rows (irglc and GAP in one run) with one-block
# light rounds in global memory (s78).
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s78 /tmp/r78; [ -d /tmp/s78/bin ] || tar -xJf s78.tar.xz -C /tmp/s78
cp REVISION "$root/REVISION"
bin=/tmp/s78/bin; data=$(pwd)/data
for a in bfs sssp cc pr; do ln -sf $a-cuda $bin/$a-cuda-auto; done
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR
roads=road/minnesota.mtx.xz,road/rome99.gr.xz,road/monaco.wel.xz,road/luxembourg_osm.mtx.xz,road/usroads.mtx.xz,road/moscow_roads.txt.xz,road/moscow_roads.gr.xz
left=$(( 380 - ($(date +%s) - start) ))
timeout $left python3 $root/tools/bench/irgl-bench run peers --apps bfs,sssp,cc,pr --schedules auto,afforest,near-far,gap \
  --bin $bin --gap /tmp/s78/gap --data $data --graphs $roads --out /tmp/r78/peers \
  --work-dir /tmp/b78 --runs 7 --budget $(( left - 20 )) > /tmp/r78/peers.log 2>&1
echo "peers exit $?: $(tail -1 /tmp/r78/peers.log)"
echo "[$(( $(date +%s) - start )) s] done"
tar -C /tmp -cJf $OUT/r78.tar.xz r78
