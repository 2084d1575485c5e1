#!/usr/bin/env bash
# cc at 4ecc090: RMAT 22 against GAP in one run (peers), RMAT 25 by
# union-find and label propagation.
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s69 /tmp/s71 /tmp/r72; [ -d /tmp/s69/bin ] || tar -xJf s69.tar.xz -C /tmp/s69
tar -xJf s71.tar.xz -C /tmp/s71 && cp /tmp/s71/bin/cc-afforest-cuda /tmp/s69/bin/cc-afforest-cuda
echo 4ecc090 > "$root/REVISION"
bin=/tmp/s69/bin; data=$(pwd)/data
for a in bfs sssp cc pr; do ln -sf $a-cuda $bin/$a-cuda-auto; done
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR
timeout 200 python3 $root/tools/bench/irgl-bench run peers --apps cc --schedules auto,afforest,gap \
  --bin $bin --gap /tmp/s69/gap --data $data --graphs rmat:scale=22,powerlaw/cnr-2000.txt.xz,road/usroads.mtx.xz --out /tmp/r72/peers \
  --work-dir /tmp/b72 --runs 7 --budget 180 > /tmp/r72/peers.log 2>&1
echo "peers exit $?: $(tail -1 /tmp/r72/peers.log)"
grep PASS /tmp/r72/peers/peers.md
echo "[$(( $(date +%s) - start )) s] rmat25"
for b in cc-afforest-cuda cc-cuda; do
  out=$(timeout 200 $bin/$b rmat:scale=25 --symmetrize --runs 5 2>&1)
  echo "rmat25 $b $(echo "$out" | grep -E '^graph' | head -1)"
  echo "rmat25 $b $(echo "$out" | sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p') $(echo "$out" | grep -o '[0-9]* components')"
done | tee /tmp/r72/rmat25.txt
echo "[$(( $(date +%s) - start )) s] done"
tar -C /tmp -cJf $OUT/r72.tar.xz r72
