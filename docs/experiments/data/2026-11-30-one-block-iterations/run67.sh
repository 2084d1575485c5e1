#!/usr/bin/env bash
# Where a loop of iterations pays on one block: pr, mis, coloring,
# cc_afforest on grids and RMAT graphs of 64 to 4,096 vertices, shared
# auto vs off; ncu's stall sampling on pr's one-block kernel (minnesota).
set -u
start=$(date +%s)
cd "$(dirname "$0")"
mkdir -p /tmp/s65 /tmp/r67; [ -d /tmp/s65/bin ] || tar -xJf s65.tar.xz -C /tmp/s65
bin=/tmp/s65/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR
for g in grid:8x8 grid:16x16 grid:24x24 grid:32x32 grid:45x45 grid:64x64 rmat:scale=8 rmat:scale=9 rmat:scale=10 rmat:scale=11 rmat:scale=12 $data/tiny/dolphins.mtx.xz $data/tiny/polbooks.mtx.xz; do
  for a in pr mis coloring cc-afforest; do
    o=""; [ $a != pr ] && o="--symmetrize"
    line="$(basename $g) $a"
    for s in auto off auto off; do
      m=$(timeout 30 $bin/$a-cuda $g $o --runs 15 --outline-shared $s 2>&1 | sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p')
      line="$line $s=${m:-FAIL}"
    done
    echo "$line"
  done
done | tee /tmp/r67/crossover.txt
echo "[$(( $(date +%s) - start )) s] ncu"
timeout 120 ncu --kernel-name regex:outlined_iterations_shared --launch-skip 1 --launch-count 1 --section WarpStateStats --section SourceCounters --section LaunchStats --section Occupancy --warp-sampling-interval 0 \
  $bin/pr-cuda $data/road/minnesota.mtx.xz --runs 3 > /tmp/r67/ncu-pr-shared.txt 2>&1
echo "ncu exit $?"
timeout 60 ncu --kernel-name regex:outlined_iterations_shared --launch-skip 1 --launch-count 1 --page source --csv --print-source sass --warp-sampling-interval 0 \
  $bin/pr-cuda $data/road/minnesota.mtx.xz --runs 3 > /tmp/r67/ncu-pr-shared-sass.csv 2>&1
echo "ncu sass exit $?"
echo "[$(( $(date +%s) - start )) s] done"
tar -C /tmp -cJf $OUT/r67.tar.xz r67
