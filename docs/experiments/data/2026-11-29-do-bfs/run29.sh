#!/usr/bin/env bash
# One H200: bfs_do built with every loop under twc, warp and lb against the
# auto build (pull: a thread per vertex) on the graphs where it lost.
set -u
c=$PWD/.device-carry
export IRGL_NO_PROGRESS=1
mkdir -p $c/s27 && tar xJf $c/s27.tar.xz -C $c/s27
b=$c/s27
go="--symmetrize --cache-dir /tmp/gc --quiet"
for g in $c/data/powerlaw/cnr-2000.txt.xz $c/data/powerlaw/uk-2007-05-100000.txt.xz $c/data/powerlaw/ego-twitter-undirected.txt.xz rmat:scale=23; do
  name=$(basename $g | tr ':=' '__')
  for p in bfs-cuda bfs-do-cuda bfs-do-cuda-twc bfs-do-cuda-warp bfs-do-cuda-lb; do
    timeout 100 $b/$p $g $go --source random --random-seed 3 --runs 5 --warmup 1 > /tmp/log.txt 2>&1 || echo "FAILED $name $p"
    echo "$name $p: $(grep '^time:' /tmp/log.txt | cut -c1-40) | $(grep '^frontier' /tmp/log.txt | cut -c1-60)"
  done
done | tee $OUT/summary.txt
