#!/usr/bin/env bash
# cc_afforest: its 2-iteration loop outlined or not; pr and sssp on the
# small roads across --outline-blocks (medians of 7, ms).
set -u
cd "$(dirname "$0")"
mkdir -p /tmp/s42 && tar -xJf s42.tar.xz -C /tmp/s42
bin=/tmp/s42/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p /tmp/r44
t() { timeout 30 "$@" --runs 7 --warmup 1 2>&1 | grep '^time:' | sed 's/time: median \([0-9.]*\) ms.*/\1/'; }
{
for g in road/minnesota.mtx.xz road/rome99.gr.xz road/monaco.wel.xz road/usroads.mtx.xz road/luxembourg_osm.mtx.xz road/moscow_roads.txt.xz powerlaw/cnr-2000.txt.xz; do
  line="cc_afforest $(basename $g)"
  for o in "" "--outline off" "--outline-blocks 264" "--outline-blocks 1056"; do line="$line | ${o:-default}: $(t $bin/cc-afforest-cuda $data/$g --symmetrize $o)"; done
  echo "$line"
done
for g in road/monaco.wel.xz road/minnesota.mtx.xz road/rome99.gr.xz; do
  line="pr $(basename $g)"
  for b in 0 8 16 32 132 264; do o=""; [ $b != 0 ] && o="--outline-blocks $b"; line="$line | $b: $(t $bin/pr-cuda $data/$g $o)"; done
  echo "$line"
done
m=$data/road/minnesota.mtx.xz
line="sssp minnesota"
for b in 0 128 192 256 264 384; do o=""; [ $b != 0 ] && o="--outline-blocks $b"; line="$line | $b: $(t $bin/sssp-cuda $m --source 2417 --weights=hash:100 $o)"; done
echo "$line"
line="sssp minnesota again"
for b in 0 128 192 256 264 384; do o=""; [ $b != 0 ] && o="--outline-blocks $b"; line="$line | $b: $(t $bin/sssp-cuda $m --source 2417 --weights=hash:100 $o)"; done
echo "$line"
} | tee /tmp/r44/log.txt
cp /tmp/r44/log.txt $OUT/
