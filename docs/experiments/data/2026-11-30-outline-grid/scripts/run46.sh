#!/usr/bin/env bash
# Loops of iterations: a thread per vertex against one and two blocks per SM
# (cc_afforest, pr; medians of 7, ms), 7b14838's binaries.
set -u
cd "$(dirname "$0")"
mkdir -p /tmp/s45 && tar -xJf s45.tar.xz -C /tmp/s45
bin=/tmp/s45/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
t() { timeout 20 "$@" --runs 7 --warmup 1 2>&1 | grep '^time:' | sed 's/time: median \([0-9.]*\) ms.*/\1/'; }
{
for g in road/rome99.gr.xz road/monaco.wel.xz road/minnesota.mtx.xz road/usroads.mtx.xz road/luxembourg_osm.mtx.xz powerlaw/ego-twitter-undirected.txt.xz powerlaw/cnr-2000.txt.xz; do
  for app in cc-afforest pr; do
    o=""; [ $app = cc-afforest ] && o=--symmetrize
    line="$app $(basename $g)"
    for b in 0 132 264; do x=""; [ $b != 0 ] && x="--outline-blocks $b"; line="$line | $b: $(t $bin/$app-cuda $data/$g $o $x)"; done
    echo "$line | off: $(t $bin/$app-cuda $data/$g $o --outline off)"
  done
done
} | tee $OUT/log46.txt
