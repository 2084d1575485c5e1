#!/usr/bin/env bash
# Outlined iterations with row tiles in the persistent kernel: answers
# (huge rows forced by --alb-threshold, TWC by --alb-rows off), sanitizers,
# pr times against the host loop and GAP.
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s35 && tar -xJf s35.tar.xz -C /tmp/s35
bin=/tmp/s35/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR /tmp/r35
stamp() { echo "[$(( $(date +%s) - start )) s] $*"; }
APPS="pr" JOBS=8 WORK_DIR=/tmp/w35 EXTRA_GRAPHS="rmat:scale=18: grid:300x300:" \
  timeout 150 bash $root/tools/gpu/check-examples.sh $bin $data cuda@outline=persistent \
  cuda@outline=persistent@alb-threshold=16 cuda-alb@outline=persistent cuda-alb@outline=persistent@alb-rows=off \
  cuda-alb@outline=persistent@alb-threshold=0 cuda@outline=auto > /tmp/r35/check.log 2>&1
echo "check exit $?"; tail -1 /tmp/r35/check.log; grep -v PASS /tmp/r35/check.log | head -20
stamp sanitizers
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $bin/pr-cuda $data/road/minnesota.mtx.xz --outline persistent --alb-threshold 2 --runs 1 > /tmp/r35/pr-$tool.log 2>&1
  echo "pr minnesota threshold 2 $tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/r35/pr-$tool.log)"
done
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $bin/pr-cuda $data/powerlaw/cnr-2000.txt.xz --outline persistent --runs 1 > /tmp/r35/pr-cnr-memcheck.log 2>&1
echo "pr cnr-2000 memcheck exit $? $(grep -E 'ERROR SUMMARY' /tmp/r35/pr-cnr-memcheck.log)"
stamp times
t() { timeout 60 "$@" --runs 7 --warmup 1 2>&1 | grep '^time:' | sed 's/time: median \([0-9.]*\) ms.*/\1/'; }
for g in road/minnesota.mtx.xz road/rome99.gr.xz road/monaco.wel.xz road/luxembourg_osm.mtx.xz road/usroads.mtx.xz road/moscow_roads.txt.xz powerlaw/ego-twitter-undirected.txt.xz powerlaw/musae_git_edges.csv.xz powerlaw/cnr-2000.txt.xz powerlaw/uk-2007-05-100000.txt.xz rmat:scale=20 grid:1000x1000 rmat:scale=22 grid:4096x4096; do
  path=$g; case $g in rmat:*|grid:*) ;; *) path=$data/$g ;; esac
  n=$(basename $g)
  echo "pr $n auto $(t $bin/pr-cuda $path) persistent $(t $bin/pr-cuda $path --outline persistent) off $(t $bin/pr-cuda $path --outline off) persistent-twc $(t $bin/pr-cuda $path --outline persistent --alb-rows off) | gap $(timeout 60 bash $root/tools/bench/gap.sh run --gap /tmp/s35/gap --app pr --graph $path --irgl-graph $bin/irgl-graph --trials 7 --verify once 2>&1 | tail -1)"
done | tee /tmp/r35/pr.txt
stamp done
tar -C /tmp -cJf $OUT/r35.tar.xz r35
