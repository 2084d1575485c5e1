#!/usr/bin/env bash
# One H200: bfs_do against bfs on web and social graphs and RMAT 20/23
# (symmetrized), levels checked by irgl-check for one source each.
set -u
c=$PWD/.device-carry
export IRGL_NO_PROGRESS=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/env.txt; cat $OUT/env.txt
mkdir -p $c/s27 && tar xJf $c/s27.tar.xz -C $c/s27
b=$c/s27
mkdir -p $OUT/logs
go="--symmetrize --cache-dir /tmp/gc --quiet"
for g in $c/data/powerlaw/cnr-2000.txt.xz $c/data/powerlaw/uk-2007-05-100000.txt.xz $c/data/powerlaw/ego-twitter-undirected.txt.xz $c/data/powerlaw/musae_git_edges.csv.xz $c/data/road/usroads.mtx.xz rmat:scale=20 rmat:scale=23; do
  name=$(basename $g | tr ':=' '__')
  for p in bfs-cuda bfs-do-cuda; do
    timeout 150 $b/$p $g $go --source random --random-seed 3 --runs 7 --warmup 2 > $OUT/logs/$name-$p.log 2>&1 || echo "FAILED $name $p: $(tail -1 $OUT/logs/$name-$p.log)"
    echo "$name $p: $(grep '^time:' $OUT/logs/$name-$p.log) | $(grep '^schedule' $OUT/logs/$name-$p.log)"
  done
  timeout 150 $b/bfs-do-cuda $g $go --source random --random-seed 5 --output /tmp/do.txt --force > /dev/null 2>&1
  timeout 150 $b/irgl-check --algorithm bfs --symmetrize --cache-dir /tmp/gc $g /tmp/do.txt 2>&1 | tail -1
done | tee $OUT/summary.txt
cd $OUT && tar cJf logs.tar.xz logs && rm -rf logs
