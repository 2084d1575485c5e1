#!/usr/bin/env bash
# Chain probe, warp per item (w): Bellman-Ford rounds with chains of 1..32 on the four roads
# where GAP wins sssp, beside irglc's sssp-cuda (fb02822) in the same run.
set -u
start=$(date +%s)
cd "$(dirname "$0")"
mkdir -p /tmp/s78 /tmp/r80 /tmp/g79; [ -d /tmp/s78/bin ] || tar -xJf s78.tar.xz -C /tmp/s78
bin=/tmp/s78/bin; data=$(pwd)/data
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader
for spec in "road/luxembourg_osm.mtx.xz 6397 hash:100" "road/usroads.mtx.xz 58610 hash:100" "road/moscow_roads.txt.xz 2094 hash:100" "road/moscow_roads.gr.xz 209 file"; do
  set -- $spec; g=$1; s=$2; w=$3; name=$(basename $g .xz)
  timeout 60 $bin/irgl-graph convert --weights=$w $data/$g /tmp/g79/$name.wel > /dev/null 2>&1
  opt="--weights=$w"; [ $w = file ] && opt=""
  ir=$(timeout 30 $bin/sssp-cuda $data/$g --source $s $opt --runs 9 2>&1 | sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p')
  echo "== $name irglc sssp-cuda $ir ms"
  timeout 120 probe79/chain_probe /tmp/g79/$name.wel $s 7 1 w1 w2 w4 w8 w16 w32 w4 w8
done 2>&1 | tee /tmp/r80/chain.txt
echo "[$(( $(date +%s) - start )) s] done"
tar -C /tmp -cJf $OUT/r80.tar.xz r80
