#!/usr/bin/env bash
# RMAT 24 against GAP (bfs, sssp, cc, pr), 4b20d01's builds. Keeps cuGraph part 1.
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/cgparts && cp cg/dp1/p1 /tmp/cgparts/ && ls -la /tmp/cgparts
rm -rf /tmp/s49; mkdir -p /tmp/s49 && tar -xJf s49.tar.xz -C /tmp/s49
for a in bfs sssp cc pr; do ln -sf $a-cuda /tmp/s49/bin/$a-cuda-auto; done
echo 4b20d01 > "$root/REVISION"
bin=/tmp/s49/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR /tmp/r49
stamp() { echo "[$(( $(date +%s) - start )) s] $*"; }
left=$(( 480 - ($(date +%s) - start) ))
timeout $left python3 $root/tools/bench/irgl-bench run peers --apps bfs,sssp,cc,pr --schedules auto,afforest,near-far,gap \
  --bin $bin --gap /tmp/s49/gap --data $data --graphs rmat:scale=24 --out /tmp/r49/peers-rmat24 \
  --work-dir /tmp/b49 --runs 7 --timeout 150 --check-max-edges 300000000 --budget $(( left - 20 )) > /tmp/r49/peers-rmat24.log 2>&1
echo "peers exit $?: $(tail -1 /tmp/r49/peers-rmat24.log)"
cat /tmp/r49/peers-rmat24/peers.md | tail -6
stamp done
tar -C /tmp -cJf $OUT/r49.tar.xz r49
