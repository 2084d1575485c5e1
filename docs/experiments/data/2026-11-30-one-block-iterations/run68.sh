#!/usr/bin/env bash
# A small graph's pipe loop on one block when the graph has hubs: bfs,
# sssp, cc (label propagation) on RMAT 8-12, shared auto vs off (s65).
set -u
start=$(date +%s)
cd "$(dirname "$0")"
mkdir -p /tmp/s65 /tmp/r68; [ -d /tmp/s65/bin ] || tar -xJf s65.tar.xz -C /tmp/s65
bin=/tmp/s65/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR
for g in rmat:scale=8 rmat:scale=9 rmat:scale=10 rmat:scale=11 rmat:scale=12 grid:45x45 grid:64x64; do
  timeout 20 $bin/irgl-graph stats --symmetrize $g 2>&1 | grep -E "out-degree" | head -1 | sed "s|^|$g |"
  for a in bfs sssp cc kcore; do
    o="--source 0"; [ $a = sssp ] && o="--source 0 --weights=hash:100"; [ $a = cc ] && o="--symmetrize"; [ $a = kcore ] && o="--simple"
    line="$g $a"
    for s in auto off auto off; do
      m=$(timeout 30 $bin/$a-cuda $g $o --runs 15 --outline-shared $s 2>&1 | sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p')
      line="$line $s=${m:-FAIL}"
    done
    echo "$line"
  done
done | tee /tmp/r68/pipes.txt
echo "[$(( $(date +%s) - start )) s] done"
tar -C /tmp -cJf $OUT/r68.tar.xz r68
