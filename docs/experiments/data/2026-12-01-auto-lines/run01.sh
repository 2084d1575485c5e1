#!/bin/bash
# Session 2026-12-01 (9th), call 1, nvidia-h200: auto's block hands rounds
# above a line to warp. Sweep --auto-block-items on the FEM graphs against
# the warp and block builds; chained road cells with --auto-warp-items off.
# Medians of 9 runs, three processes of each config, alternating.
set -u
cd "$(dirname "$0")/.."
W=/tmp/w; mkdir -p $W && tar -C $W -xJf .device-carry/r7.tar.xz; B=$W/bin; D=.device-carry/data
R=/tmp/r; mkdir -p $R
nvidia-smi -L > $R/nvidia-smi.txt
timeout 240 $B/irgl_gpu_runtime_tests --gtest_filter='Outline.*:OutlineGrid.*:AutoInKernel.*:FrontierForms.*:AutoPick*' > $R/gpu-tests.log 2>&1; echo "rc $?" >> $R/gpu-tests.log
timeout 120 compute-sanitizer --tool memcheck $B/irgl_gpu_runtime_tests --gtest_filter='Outline.AutoBlock*:FrontierForms.AutoHands*' > $R/memcheck.log 2>&1; echo "rc $?" >> $R/memcheck.log
tail -3 $R/gpu-tests.log
med() { timeout 60 "$@" --warmup 2 --runs 9 2>&1 | grep -E '^run ' | awk '{print $3}' | sort -n | sed -n 5p; }
opts_of() { # app source extra
  case $1 in bfs) echo "--source $2";; sssp) echo "--source $2 $3";; cc) echo "--symmetrize";; kcore) echo "--simple --k 3";; esac; }
f=$R/fem.txt
for spec in "spmv/bcsstk13.mtx.xz 1533" "spmv/bcsstk16.mtx.xz 243" "spmv/bips98_606.mtx.xz 6413"; do
  set -- $spec; file=$1 src=$2
  for app in bfs sssp cc kcore; do
    o=$(opts_of $app $src --weights=hash:100)
    timeout 60 $B/$app-cuda $D/$file $o --runs 1 --output /tmp/a.out --force > /dev/null 2>&1
    timeout 60 $B/$app-cuda-warp $D/$file $o --runs 1 --output /tmp/b.out --force > /dev/null 2>&1
    cmp -s /tmp/a.out /tmp/b.out && echo "$(basename $file) $app answers: same" >> $f || echo "$(basename $file) $app answers: DIFFER" >> $f
    timeout 60 $B/$app-cuda $D/$file $o --runs 1 2>&1 | grep "schedule auto" | sed "s/^/$(basename $file) $app /" >> $f
    for rep in 1 2 3; do
      for cfg in default 132 528 4224 off nowarpline warp block; do
        case $cfg in default) m=$(med $B/$app-cuda $D/$file $o);;
          off) m=$(med $B/$app-cuda $D/$file $o --auto-block-items 1000000000000);;
          nowarpline) m=$(med $B/$app-cuda $D/$file $o --auto-warp-items 1000000000000);;
          warp|block) m=$(med $B/$app-cuda-$cfg $D/$file $o);;
          *) m=$(med $B/$app-cuda $D/$file $o --auto-block-items $cfg);; esac
        echo "$(basename $file) $app $cfg rep$rep $m" >> $f
      done
    done
  done
done
f=$R/roads.txt
for spec in "road/luxembourg_osm.mtx.xz 6397 --weights=hash:100" "road/usroads.mtx.xz 58610 --weights=hash:100" \
            "road/moscow_roads.txt.xz 2094 --weights=hash:100" "road/moscow_roads.gr.xz 209" \
            "road/minnesota.mtx.xz 2417 --weights=hash:100"; do
  set -- $spec; file=$1 src=$2; shift 2
  for app in sssp cc; do
    o=$(opts_of $app $src "$*")
    for rep in 1 2 3; do
      for cfg in default nowarpline warp; do
        case $cfg in default) m=$(med $B/$app-cuda $D/$file $o);;
          nowarpline) m=$(med $B/$app-cuda $D/$file $o --auto-warp-items 1000000000000);;
          warp) m=$(med $B/$app-cuda-warp $D/$file $o);; esac
        echo "$(basename $file) $app $cfg rep$rep $m" >> $f
      done
    done
  done
done
tar -C $R -czf $OUT/r07.tgz .
cat $R/fem.txt | head -5
