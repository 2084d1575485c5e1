#!/bin/bash
# Session 2026-12-01 (9th), call 4, nvidia-h200: rounds on one block that
# auto runs a thread per item: a warp per vertex up to --one-block-warp-items
# (default: 8 x the mean degree; 1: only single-item rounds), against the
# warp and thread builds. Medians of 9 runs, three processes of each,
# alternating; answers compared with the thread build's.
set -u
cd "$(dirname "$0")/.."
W=/tmp/w; mkdir -p $W && tar -C $W -xJf .device-carry/r10.tar.xz; B=$W/bin; D=.device-carry/data
R=/tmp/r; mkdir -p $R
nvidia-smi -L > $R/nvidia-smi.txt
med() { timeout 60 "$@" --warmup 2 --runs 9 2>&1 | grep -E '^run ' | awk '{print $3}' | sort -n | sed -n 5p; }
f=$R/one-block.txt
for spec in "tiny/karate.mtx.xz 33 --weights=hash:100" "tiny/dolphins.mtx.xz 14 --weights=hash:100" \
            "tiny/netscience.mtx.xz 33 --weights=hash:100" "spmv/west0067.mtx.xz 9 --weights=hash:100" \
            "spmv/bips98_606.mtx.xz 6413 --weights=hash:100" \
            "road/minnesota.mtx.xz 2417 --weights=hash:100" "road/rome99.gr.xz 40" "road/monaco.wel.xz 843" \
            "road/luxembourg_osm.mtx.xz 6397 --weights=hash:100" "road/usroads.mtx.xz 58610 --weights=hash:100"; do
  set -- $spec; file=$1 src=$2; shift 2
  g=$D/$file
  for app in bfs sssp cc kcore; do
    case $app in bfs) o="--source $src";; sssp) o="--source $src $*";; cc) o="--symmetrize";; kcore) o="--simple --k 3";; esac
    timeout 60 $B/$app-cuda $g $o --runs 1 --output /tmp/a.out --force > /dev/null 2>&1
    timeout 60 $B/$app-cuda-thread $g $o --runs 1 --output /tmp/b.out --force > /dev/null 2>&1
    cmp -s /tmp/a.out /tmp/b.out && echo "$(basename $file) $app answers: same" >> $f || echo "$(basename $file) $app answers: DIFFER" >> $f
    for rep in 1 2 3; do
      for cfg in default 1 16 32 64 warp thread; do
        case $cfg in default) m=$(med $B/$app-cuda $g $o);;
          warp|thread) m=$(med $B/$app-cuda-$cfg $g $o);;
          *) m=$(med $B/$app-cuda $g $o --one-block-warp-items $cfg);; esac
        echo "$(basename $file) $app $cfg rep$rep $m" >> $f
      done
    done
  done
done
tar -C $R -czf $OUT/r10.tgz .
grep -c same $f; grep DIFFER $f
