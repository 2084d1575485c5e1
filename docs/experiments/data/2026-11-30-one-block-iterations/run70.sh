#!/usr/bin/env bash
# Where cc_afforest's time goes after neighbor rounds: ncu kernel times on
# RMAT 22, outlined and with a launch per kernel.
set -u
cd "$(dirname "$0")"
mkdir -p /tmp/s69 /tmp/r70; [ -d /tmp/s69/bin ] || tar -xJf s69.tar.xz -C /tmp/s69
bin=/tmp/s69/bin
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR
for o in auto off; do
  timeout 120 ncu --metrics gpu__time_duration.sum --csv $bin/cc-afforest-cuda rmat:scale=22 --symmetrize --runs 1 --outline $o > /tmp/r70/ncu-$o.csv 2>&1
  echo "ncu $o exit $?"
  grep -E '^"' /tmp/r70/ncu-$o.csv | tail -n +2 | awk -F'","' '{k=$5; n=split(k,a,"irglc_cc::"); split(a[n],b,"[,>]"); print b[1]" "$NF}' | tr -d '"'
done
timeout 60 $bin/cc-afforest-cuda rmat:scale=22 --symmetrize --runs 5 --neighbor-rounds 1 2>&1 | grep -E "median|result"
timeout 60 $bin/cc-afforest-cuda rmat:scale=22 --symmetrize --runs 5 --neighbor-rounds 2 2>&1 | grep -E "median|result"
tar -C /tmp -cJf $OUT/r70.tar.xz r70
