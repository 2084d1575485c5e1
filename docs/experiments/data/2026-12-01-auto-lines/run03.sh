#!/bin/bash
# Session 2026-12-01 (9th), call 3, nvidia-h200: the committed lines (warp
# 128 per SM, block 8 per SM) against the old ones (warp 32 per SM, no block
# line: --auto-warp-items 4224 --auto-block-items 1e12 on 132 SMs), same
# binary, on every cell whose pipe loops auto runs warp or block. Medians
# of 9 runs, three processes of each, alternating; answers compared.
set -u
cd "$(dirname "$0")/.."
W=/tmp/w; mkdir -p $W && tar -C $W -xJf .device-carry/r9.tar.xz; B=$W/bin; D=.device-carry/data
R=/tmp/r; mkdir -p $R
nvidia-smi -L > $R/nvidia-smi.txt
timeout 200 $B/irgl_gpu_runtime_tests --gtest_filter='Outline.*:OutlineGrid.*:AutoInKernel.*:FrontierForms.*:AutoPick*' > $R/gpu-tests.log 2>&1; echo "rc $?" >> $R/gpu-tests.log
for tool in memcheck racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $tool $B/irgl_gpu_runtime_tests --gtest_filter='Outline.AutoBlock*:Outline.AutoWarp*:FrontierForms.AutoHands*:FrontierForms.AutoLogs*' > $R/$tool.log 2>&1; echo "rc $?" >> $R/$tool.log
done
tail -2 $R/gpu-tests.log; tail -2 $R/*check.log
med() { timeout 60 "$@" --warmup 2 --runs 9 2>&1 | grep -E '^run ' | awk '{print $3}' | sort -n | sed -n 5p; }
OLD="--auto-warp-items 4224 --auto-block-items 1000000000000"
f=$R/lines.txt
for spec in "road/luxembourg_osm.mtx.xz 6397 --weights=hash:100" "road/usroads.mtx.xz 58610 --weights=hash:100" \
            "road/moscow_roads.txt.xz 2094 --weights=hash:100" "road/moscow_roads.gr.xz 209" \
            "road/minnesota.mtx.xz 2417 --weights=hash:100" "road/rome99.gr.xz 40" "road/monaco.wel.xz 843" \
            "grid:1000x1000 0 --weights=hash:100" "spmv/bips98_606.mtx.xz 6413 --weights=hash:100" \
            "spmv/bcsstk13.mtx.xz 1533 --weights=hash:100" "spmv/bcsstk16.mtx.xz 243 --weights=hash:100" \
            "spmv/west0067.mtx.xz 9 --weights=hash:100" "tiny/karate.mtx.xz 33 --weights=hash:100" \
            "tiny/dolphins.mtx.xz 14 --weights=hash:100" "tiny/polbooks.mtx.xz 8 --weights=hash:100" \
            "tiny/netscience.mtx.xz 33 --weights=hash:100" "tiny/chesapeake.mtx.xz 38 --weights=hash:100"; do
  set -- $spec; file=$1 src=$2; shift 2
  case $file in grid:*) g=$file;; *) g=$D/$file;; esac
  for app in bfs sssp cc kcore; do
    case $app in bfs) o="--source $src";; sssp) o="--source $src $*";; cc) o="--symmetrize";; kcore) o="--simple --k 3";; esac
    timeout 60 $B/$app-cuda $g $o --runs 1 --output /tmp/a.out --force > /dev/null 2>&1
    timeout 60 $B/$app-cuda $g $o $OLD --runs 1 --output /tmp/b.out --force > /dev/null 2>&1
    cmp -s /tmp/a.out /tmp/b.out && echo "$(basename $file) $app answers: same" >> $f || echo "$(basename $file) $app answers: DIFFER" >> $f
    for rep in 1 2 3; do
      echo "$(basename $file) $app new rep$rep $(med $B/$app-cuda $g $o)" >> $f
      echo "$(basename $file) $app old rep$rep $(med $B/$app-cuda $g $o $OLD)" >> $f
    done
  done
done
tar -C $R -czf $OUT/r09.tgz .
grep -c same $f; grep DIFFER $f
