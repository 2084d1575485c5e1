#!/bin/bash
# Session 2026-12-01 (9th), call 5, nvidia-h200: the committed build: the
# runtime's GPU tests, sanitizers on auto's new tests, and bfs, sssp, cc,
# kcore under auto checked by irgl-check on small and road graphs.
set -u
cd "$(dirname "$0")/.."
W=/tmp/w; mkdir -p $W && tar -C $W -xJf .device-carry/r11.tar.xz; B=$W/bin; D=.device-carry/data
R=/tmp/r; mkdir -p $R
nvidia-smi -L > $R/nvidia-smi.txt
timeout 240 $B/irgl_gpu_runtime_tests > $R/gpu-tests.log 2>&1; echo "rc $?" >> $R/gpu-tests.log
for tool in memcheck racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $tool $B/irgl_gpu_runtime_tests --gtest_filter='Outline.Auto*:FrontierForms.Auto*' > $R/$tool.log 2>&1; echo "rc $?" >> $R/$tool.log
done
f=$R/checks.txt
for spec in "tiny/karate.mtx.xz 33" "tiny/dolphins.mtx.xz 14" "tiny/polbooks.mtx.xz 8" "spmv/west0067.mtx.xz 9" \
            "spmv/bcsstk16.mtx.xz 243" "spmv/bips98_606.mtx.xz 6413" "road/minnesota.mtx.xz 2417" \
            "road/monaco.wel.xz 843" "road/luxembourg_osm.mtx.xz 6397" "road/moscow_roads.gr.xz 209"; do
  set -- $spec; g=$D/$1; src=$2
  for app in bfs sssp cc kcore; do
    case $app in bfs) o="--source $src";; sssp) o="--source $src"; case $1 in *.gr.xz|*.wel.xz) ;; *) o="$o --weights=hash:100";; esac;;
      cc) o="--symmetrize";; kcore) o="--simple --k 3";; esac
    timeout 60 $B/$app-cuda $g $o --runs 2 --output /tmp/o.out --force > /tmp/run.log 2>&1
    echo "$(basename $1) $app run rc $? $(grep -E '^run 2' /tmp/run.log)" >> $f
    echo "$(basename $1) $app check: $(timeout 120 $B/irgl-check --algorithm $app $g /tmp/o.out $o 2>&1 | tail -1)" >> $f
  done
done
tail -3 $R/gpu-tests.log; tail -1 $R/*check.log; grep -c "check:.*PASS" $f; grep "check:" $f | grep -v PASS | head
tar -C $R -czf $OUT/r11.tgz .
