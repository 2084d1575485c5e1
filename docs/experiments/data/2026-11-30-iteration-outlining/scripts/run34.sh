#!/usr/bin/env bash
# Outlined iterations, second look: auto's in-kernel pick for passes over
# all vertices (place all_nodes), per-iteration cost (--max-iterations 1
# against the default), host TWC against row tiles.
set -u
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s34 && tar -xJf s34.tar.xz -C /tmp/s34
bin=/tmp/s34/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR /tmp/r34
APPS="pr mis coloring" JOBS=8 WORK_DIR=/tmp/w34 EXTRA_GRAPHS="rmat:scale=18:" \
  timeout 150 bash $root/tools/gpu/check-examples.sh $bin $data cuda@outline=persistent > /tmp/r34/check.log 2>&1
echo "check exit $?"; tail -1 /tmp/r34/check.log
t() { timeout 60 "$@" --runs 7 --warmup 1 2>&1 | grep '^time:' | sed 's/time: median \([0-9.]*\) ms.*/\1/'; }
for g in road/minnesota.mtx.xz road/monaco.wel.xz road/usroads.mtx.xz powerlaw/ego-twitter-undirected.txt.xz powerlaw/musae_git_edges.csv.xz powerlaw/cnr-2000.txt.xz powerlaw/uk-2007-05-100000.txt.xz rmat:scale=20; do
  path=$g; case $g in rmat:*|grid:*) ;; *) path=$data/$g ;; esac
  n=$(basename $g)
  echo "pr $n persistent $(t $bin/pr-cuda $path --outline persistent) | 1 it $(t $bin/pr-cuda $path --outline persistent --max-iterations 1) | 10 it $(t $bin/pr-cuda $path --outline persistent --max-iterations 10)"
  echo "pr $n off $(t $bin/pr-cuda $path --outline off) | 1 it $(t $bin/pr-cuda $path --outline off --max-iterations 1) | 10 it $(t $bin/pr-cuda $path --outline off --max-iterations 10) | rows off $(t $bin/pr-cuda $path --outline off --alb-rows off) | rows on $(t $bin/pr-cuda $path --outline off --alb-rows on)"
  echo "pr $n auto $(t $bin/pr-cuda $path)"
done | tee /tmp/r34/pr.txt
for g in powerlaw/cnr-2000.txt.xz powerlaw/ego-twitter-undirected.txt.xz road/usroads.mtx.xz; do
  for app in mis coloring; do
    echo "$app $(basename $g) persistent $(t $bin/$app-cuda $data/$g --simple --outline persistent) off $(t $bin/$app-cuda $data/$g --simple --outline off)"
  done
done | tee /tmp/r34/mis.txt
tar -C /tmp -cJf $OUT/r34.tar.xz r34
