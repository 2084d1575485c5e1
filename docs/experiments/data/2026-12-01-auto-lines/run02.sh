#!/bin/bash
# Session 2026-12-01 (9th), call 2, nvidia-h200: warp's round line
# (--auto-warp-items) swept on roads, the grid and bips98_606, bfs, sssp,
# cc and kcore; the fixed warp and TWC builds beside. Medians of 9 runs,
# three processes of each config, alternating.
set -u
cd "$(dirname "$0")/.."
W=/tmp/w; mkdir -p $W && tar -C $W -xJf .device-carry/r8.tar.xz; B=$W/bin; D=.device-carry/data
R=/tmp/r; mkdir -p $R
nvidia-smi -L > $R/nvidia-smi.txt
timeout 240 $B/irgl_gpu_runtime_tests --gtest_filter='Outline.*:OutlineGrid.*:AutoInKernel.*:FrontierForms.*:AutoPick*' > $R/gpu-tests.log 2>&1; echo "rc $?" >> $R/gpu-tests.log
tail -3 $R/gpu-tests.log
med() { timeout 60 "$@" --warmup 2 --runs 9 2>&1 | grep -E '^run ' | awk '{print $3}' | sort -n | sed -n 5p; }
f=$R/warp-line.txt
for spec in "road/luxembourg_osm.mtx.xz 6397 --weights=hash:100" "road/usroads.mtx.xz 58610 --weights=hash:100" \
            "road/moscow_roads.txt.xz 2094 --weights=hash:100" "road/moscow_roads.gr.xz 209" \
            "road/minnesota.mtx.xz 2417 --weights=hash:100" "road/rome99.gr.xz 40" "road/monaco.wel.xz 843" \
            "grid:1000x1000 0 --weights=hash:100" "spmv/bips98_606.mtx.xz 6413 --weights=hash:100"; do
  set -- $spec; file=$1 src=$2; shift 2
  case $file in grid:*) g=$file;; *) g=$D/$file;; esac
  for app in bfs sssp cc kcore; do
    case $app in bfs) o="--source $src";; sssp) o="--source $src $*";; cc) o="--symmetrize";; kcore) o="--simple --k 3";; esac
    for rep in 1 2 3; do
      for cfg in 4224 16896 67584 off warp twc; do
        case $cfg in off) m=$(med $B/$app-cuda $g $o --auto-warp-items 1000000000000);;
          warp|twc) m=$(med $B/$app-cuda-$cfg $g $o);;
          *) m=$(med $B/$app-cuda $g $o --auto-warp-items $cfg);; esac
        echo "$(basename $file) $app $cfg rep$rep $m" >> $f
      done
    done
  done
done
tar -C $R -czf $OUT/r08.tgz .
