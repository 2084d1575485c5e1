#!/bin/bash
# Session 2026-12-01 (10th), call 5, nvidia-h200: the review's fixes
# (merge-path in LB's place keeps its small rounds; the hub share in the
# same pass as the other statistics): the runtime's GPU tests, memcheck on
# auto's tests, and irgl-check with the run's time and picks on the web
# graphs and RMAT 18.
set -u
cd "$(dirname "$0")/.."
W=/tmp/w; mkdir -p $W && tar -C $W -xJf .device-carry/r5.tar.xz; B=$W/bin; D=.device-carry/data
R=/tmp/r; mkdir -p $R
export IRGL_CACHE_DIR=/tmp/cache; mkdir -p $IRGL_CACHE_DIR
nvidia-smi -L > $R/nvidia-smi.txt
timeout 200 $B/irgl_gpu_runtime_tests > $R/gpu-tests.log 2>&1; echo "rc $?" >> $R/gpu-tests.log
timeout 90 compute-sanitizer --tool memcheck $B/irgl_gpu_runtime_tests --gtest_filter='Outline.Auto*:FrontierForms.Auto*:LangRun.*' > $R/memcheck.log 2>&1; echo "rc $?" >> $R/memcheck.log
f=$R/checks.txt
for spec in "powerlaw/musae_git_edges.csv.xz 27803" "powerlaw/ego-twitter-undirected.txt.xz 109" \
            "powerlaw/cnr-2000.txt.xz 217849" "powerlaw/uk-2007-05-100000.txt.xz 77309" "rmat:scale=18 0"; do
  set -- $spec; src=$2; case $1 in rmat:*) g=$1;; *) g=$D/$1;; esac
  for app in bfs sssp cc kcore; do
    case $app in bfs) o="--source $src";; sssp) o="--source $src --weights=hash:100";; cc) o="--symmetrize";; kcore) o="--simple --k 3";; esac
    timeout 60 $B/$app-cuda $g $o --warmup 2 --runs 9 --output /tmp/o.out --force > /tmp/run.log 2>&1
    echo "$(basename $1) $app rc $? $(grep -E '^time:' /tmp/run.log) $(grep -E '^schedule auto' /tmp/run.log)" >> $f
    echo "$(basename $1) $app check: $(timeout 120 $B/irgl-check --algorithm $app $g /tmp/o.out $o 2>&1 | tail -1)" >> $f
  done
done
tar -C $R -czf $OUT/rN.tgz .
tail -3 $R/gpu-tests.log; tail -2 $R/memcheck.log; grep -c "check:.*PASS" $f; grep "check:" $f | grep -v PASS | head; grep -v check: $f
