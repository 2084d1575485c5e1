#!/usr/bin/env bash
# Performance at the outline grid's default: RMAT 20/22 against every
# resident block, then the peers table (bfs/sssp/cc/pr vs GAP).
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s42 && tar -xJf s42.tar.xz -C /tmp/s42
cp REVISION "$root/REVISION"
bin=/tmp/s42/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR /tmp/r43
stamp() { echo "[$(( $(date +%s) - start )) s] $*"; }
bench() {  # OUT-NAME BUILDS PROGRAM-OPTIONS GRAPHS APPS END
  local left=$(( $6 - ($(date +%s) - start) ))
  [ $left -lt 30 ] && { echo "skip $1: no time"; return; }
  timeout $left python3 $root/tools/bench/irgl-bench run peers --apps $5 --schedules $2 \
    --bin $bin --gap /tmp/s42/gap --data $data --graphs $4 --out /tmp/r43/$1 \
    --work-dir /tmp/b43 --runs 7 --budget $(( left - 20 )) ${3:+--program-options "$3"} > /tmp/r43/$1.log 2>&1
  echo "$1 exit $?: $(tail -1 /tmp/r43/$1.log)"
}
stamp rmat
bench rmat-default auto "" rmat:scale=20,rmat:scale=22 bfs,sssp,cc 120
bench rmat-resident auto "--outline-blocks 100000" rmat:scale=20,rmat:scale=22 bfs,sssp,cc 190
stamp peers
roads=road/minnesota.mtx.xz,road/rome99.gr.xz,road/monaco.wel.xz,road/luxembourg_osm.mtx.xz,road/usroads.mtx.xz,road/moscow_roads.txt.xz,road/moscow_roads.gr.xz
web=powerlaw/musae_git_edges.csv.xz,powerlaw/ego-twitter-undirected.txt.xz,powerlaw/cnr-2000.txt.xz,powerlaw/uk-2007-05-100000.txt.xz
bench peers auto,afforest,near-far,gap "" $roads,$web bfs,sssp,cc,pr 470
bench peers-large auto,afforest,near-far,gap "" grid:4096x4096,rmat:scale=22 bfs,sssp,cc 585
stamp done
tar -C /tmp -cJf $OUT/r43.tar.xz r43
