#!/bin/bash
# Session 2026-12-01 (8th), call 5, nvidia-h200: chained loops on roads with
# auto's rounds on one block as a warp per vertex (-ow: the line at mean 0)
# against the default (thread there) and the warp build. Medians of 9 runs,
# three processes of each, alternating.
set -u
cd "$(dirname "$0")/.."
W=/tmp/w; mkdir -p $W && tar -C $W -xJf .device-carry/r5.tar.xz
B=$W/bin; D=.device-carry/data
f=$OUT/chained-one-block.txt
nvidia-smi -L > $f
for spec in "road/luxembourg_osm.mtx.xz 6397 --weights=hash:100" "road/usroads.mtx.xz 58610 --weights=hash:100" \
            "road/moscow_roads.txt.xz 2094 --weights=hash:100" "road/moscow_roads.gr.xz 209" \
            "road/minnesota.mtx.xz 2417 --weights=hash:100"; do
  set -- $spec; file=$1 source=$2; shift 2
  for app in sssp cc; do
    if [ $app = sssp ]; then opts="--source $source $*"; else opts="--symmetrize"; fi
    timeout 30 $B/$app-cuda $D/$file $opts --runs 1 --output /tmp/a.out --force > /dev/null 2>&1
    timeout 30 $B/$app-cuda-ow $D/$file $opts --runs 1 --output /tmp/b.out --force > /dev/null 2>&1
    cmp -s /tmp/a.out /tmp/b.out && echo "$(basename $file) $app answers: same" >> $f || echo "$(basename $file) $app answers: DIFFER" >> $f
    for rep in 1 2 3; do for b in cuda cuda-ow cuda-warp; do
      m=$(timeout 30 $B/$app-$b $D/$file $opts --warmup 2 --runs 9 2>&1 | grep -E '^run ' | awk '{print $3}' | sort -n | sed -n 5p)
      echo "$(basename $file) $app $b rep$rep $m" >> $f
    done; done
  done
done
cat $f
