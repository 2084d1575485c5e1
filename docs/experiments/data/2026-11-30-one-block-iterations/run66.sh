#!/usr/bin/env bash
# The peer table's irglc and GAP columns in one run (s69 = one-block iterations + afforest neighbor rounds).
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s69 /tmp/r66; [ -d /tmp/s69/bin ] || tar -xJf s69.tar.xz -C /tmp/s69
cp REVISION "$root/REVISION"
bin=/tmp/s69/bin; data=$(pwd)/data
for a in bfs sssp cc pr; do ln -sf $a-cuda $bin/$a-cuda-auto; done
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR
roads=road/minnesota.mtx.xz,road/rome99.gr.xz,road/monaco.wel.xz,road/luxembourg_osm.mtx.xz,road/usroads.mtx.xz,road/moscow_roads.txt.xz,road/moscow_roads.gr.xz
web=powerlaw/musae_git_edges.csv.xz,powerlaw/ego-twitter-undirected.txt.xz,powerlaw/cnr-2000.txt.xz,powerlaw/uk-2007-05-100000.txt.xz
left=$(( 520 - ($(date +%s) - start) ))
timeout $left python3 $root/tools/bench/irgl-bench run peers --apps bfs,sssp,cc,pr --schedules auto,afforest,near-far,gap \
  --bin $bin --gap /tmp/s69/gap --data $data --graphs $roads,$web,rmat:scale=22 --out /tmp/r66/peers \
  --work-dir /tmp/b66 --runs 7 --budget $(( left - 20 )) > /tmp/r66/peers.log 2>&1
echo "peers exit $?: $(tail -1 /tmp/r66/peers.log)"
echo "[$(( $(date +%s) - start )) s] done"
tar -C /tmp -cJf $OUT/r66.tar.xz r66
