#!/bin/bash
# Session 2026-12-01 (10th), call 3, nvidia-h200: the committed build (hub
# share rule, merge-path's rounds of at most 32 items per SM on TWC): the
# runtime's GPU tests, sanitizers on the new tests, irgl-check on the web
# graphs and RMAT 18, auto's picks on RMAT 16-20 against the previous
# build, and irgl-bench against every fixed schedule on the web graphs.
set -u
cd "$(dirname "$0")/.."
W=/tmp/w; mkdir -p $W && tar -C $W -xJf .device-carry/r3.tar.xz; B=$W/bin; O=$W/old; D=.device-carry/data
R=/tmp/r; mkdir -p $R
export IRGL_CACHE_DIR=/tmp/cache; mkdir -p $IRGL_CACHE_DIR
nvidia-smi -L > $R/nvidia-smi.txt
timeout 200 $B/irgl_gpu_runtime_tests > $R/gpu-tests.log 2>&1; echo "rc $?" >> $R/gpu-tests.log
for tool in memcheck racecheck synccheck; do
  timeout 80 compute-sanitizer --tool $tool $B/irgl_gpu_runtime_tests --gtest_filter='Outline.AutoMergePath*:FrontierForms.AutoHandsMergePaths*' > $R/$tool.log 2>&1; echo "rc $?" >> $R/$tool.log
done
f=$R/checks.txt
for spec in "powerlaw/musae_git_edges.csv.xz 27803" "powerlaw/ego-twitter-undirected.txt.xz 109" \
            "powerlaw/cnr-2000.txt.xz 217849" "powerlaw/uk-2007-05-100000.txt.xz 77309" "rmat:scale=18 0"; do
  set -- $spec; src=$2; case $1 in rmat:*) g=$1;; *) g=$D/$1;; esac
  for app in bfs sssp cc kcore; do
    case $app in bfs) o="--source $src";; sssp) o="--source $src --weights=hash:100";; cc) o="--symmetrize";; kcore) o="--simple --k 3";; esac
    timeout 60 $B/$app-cuda $g $o --runs 2 --output /tmp/o.out --force > /tmp/run.log 2>&1
    echo "$(basename $1) $app run rc $? $(grep -E '^schedule auto' /tmp/run.log)" >> $f
    echo "$(basename $1) $app check: $(timeout 120 $B/irgl-check --algorithm $app $g /tmp/o.out $o 2>&1 | tail -1)" >> $f
  done
done
p=$R/rmat-picks.txt
for s in 16 18 20; do
  for app in bfs sssp cc kcore; do
    case $app in bfs) o="--source 0";; sssp) o="--source 0 --weights=hash:100";; cc) o="--symmetrize";; kcore) o="--simple --k 3";; esac
    echo "rmat$s $app new: $(timeout 60 $B/$app-cuda rmat:scale=$s $o --runs 1 2>&1 | grep -E '^schedule auto')" >> $p
    echo "rmat$s $app old: $(timeout 60 $O/$app-cuda rmat:scale=$s $o --runs 1 2>&1 | grep -E '^schedule auto')" >> $p
  done
done
for a in bfs sssp cc kcore; do ln -sf $a-cuda $B/$a-cuda-auto; done
timeout 230 tools/bench/irgl-bench run real --bin $B --data $D --apps bfs,sssp,cc,kcore \
   --out $R/bench --work-dir /tmp/bench --runs 5 --warmup 1 --timeout 10 --confirm-auto 3 --budget 200 \
   --schedules alb,auto,twc,lb,merge-path,warp,block,thread \
   --graphs powerlaw/musae_git_edges.csv.xz,powerlaw/ego-twitter-undirected.txt.xz,powerlaw/cnr-2000.txt.xz,powerlaw/uk-2007-05-100000.txt.xz \
   > $R/bench.log 2>&1
echo "rc $?" >> $R/bench.log
tar -C $R -czf $OUT/rN.tgz .
tail -3 $R/gpu-tests.log; tail -n1 $R/*check.log; grep -c "check:.*PASS" $f; grep "check:" $f | grep -v PASS | head; tail -3 $R/bench.log
