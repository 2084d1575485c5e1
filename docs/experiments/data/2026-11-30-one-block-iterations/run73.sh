#!/usr/bin/env bash
# RMAT 24 against GAP in one run: bfs, sssp, cc, pr (s69 builds, cc_afforest of 4ecc090).
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s69 /tmp/s71 /tmp/r73; [ -d /tmp/s69/bin ] || tar -xJf s69.tar.xz -C /tmp/s69
tar -xJf s71.tar.xz -C /tmp/s71 && cp /tmp/s71/bin/cc-afforest-cuda /tmp/s69/bin/cc-afforest-cuda
echo 4ecc090 > "$root/REVISION"
bin=/tmp/s69/bin; data=$(pwd)/data
for a in bfs sssp cc pr; do ln -sf $a-cuda $bin/$a-cuda-auto; done
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR
timeout 500 python3 $root/tools/bench/irgl-bench run peers --apps bfs,cc,sssp,pr --schedules auto,afforest,gap \
  --bin $bin --gap /tmp/s69/gap --data $data --graphs rmat:scale=24 --out /tmp/r73/peers \
  --work-dir /tmp/b73 --runs 5 --timeout 150 --budget 430 > /tmp/r73/peers.log 2>&1
echo "peers exit $?: $(tail -1 /tmp/r73/peers.log)"
grep "rmat24" /tmp/r73/peers/peers.md
echo "[$(( $(date +%s) - start )) s] done"
tar -C /tmp -cJf $OUT/r73.tar.xz r73
