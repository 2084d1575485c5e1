#!/usr/bin/env bash
# mis and coloring with row tiles in the persistent kernel.
set -u
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s36 && tar -xJf s36.tar.xz -C /tmp/s36
bin=/tmp/s36/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR /tmp/r36
APPS="mis coloring pr" JOBS=8 WORK_DIR=/tmp/w36 EXTRA_GRAPHS="rmat:scale=18:" \
  timeout 120 bash $root/tools/gpu/check-examples.sh $bin $data cuda@outline=persistent cuda@outline=persistent@alb-rows=off > /tmp/r36/check.log 2>&1
echo "check exit $?"; tail -1 /tmp/r36/check.log; grep -v PASS /tmp/r36/check.log | head
t() { timeout 60 "$@" --runs 5 --warmup 1 2>&1 | grep '^time:' | sed 's/time: median \([0-9.]*\) ms.*/\1/'; }
for g in powerlaw/cnr-2000.txt.xz powerlaw/ego-twitter-undirected.txt.xz powerlaw/uk-2007-05-100000.txt.xz powerlaw/musae_git_edges.csv.xz road/usroads.mtx.xz road/minnesota.mtx.xz rmat:scale=18 grid:1000x1000; do
  path=$g; case $g in rmat:*|grid:*) ;; *) path=$data/$g ;; esac
  for app in mis coloring; do
    echo "$app $(basename $g) persistent $(t $bin/$app-cuda $path --simple --outline persistent) twc $(t $bin/$app-cuda $path --simple --outline persistent --alb-rows off) off $(t $bin/$app-cuda $path --simple --outline off) off-rows-on $(t $bin/$app-cuda $path --simple --outline off --alb-rows on) off-rows-off $(t $bin/$app-cuda $path --simple --outline off --alb-rows off)"
  done
done | tee /tmp/r36/times.txt
for g in road/monaco.wel.xz road/minnesota.mtx.xz powerlaw/cnr-2000.txt.xz powerlaw/ego-twitter-undirected.txt.xz; do
  echo "pr $(basename $g) auto $(t $bin/pr-cuda $data/$g) off $(t $bin/pr-cuda $data/$g --outline off)"
done | tee -a /tmp/r36/times.txt
tar -C /tmp -cJf $OUT/r36.tar.xz r36
