#!/usr/bin/env bash
# One H200: a direction-optimizing bfs written in the language as it is
# (pull rounds without early exit) against bfs-cuda on symmetric graphs.
set -u
c=$PWD/.device-carry
export IRGL_NO_PROGRESS=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/env.txt; cat $OUT/env.txt
mkdir -p $c/do && tar xJf $c/do.tar.xz -C $c/do
mkdir -p $OUT/logs
xz -dc $c/data/road/moscow_roads.gr.xz > /tmp/moscow.gr
go="--symmetrize --cache-dir /tmp/gc --quiet"
for g in rmat:scale=22 rmat:scale=24 /tmp/moscow.gr; do
  name=$(basename $g | tr ':=' '__')
  for p in bfs bfs_do; do
    timeout 200 $c/do/$p-cuda $g $go --source random --random-seed 3 --runs 7 --warmup 2 > $OUT/logs/$name-$p.log 2>&1 || echo "FAILED $name $p: $(tail -2 $OUT/logs/$name-$p.log)"
    echo "$name $p: $(grep '^time:' $OUT/logs/$name-$p.log)"
  done
  for p in bfs bfs_do; do
    timeout 200 $c/do/$p-cuda $g $go --source 7 --output /tmp/$p.txt --force > /dev/null 2>&1
  done
  cmp -s <(grep -v '^#' /tmp/bfs.txt) <(grep -v '^#' /tmp/bfs_do.txt) && echo "$name: levels equal (source 7)" || echo "$name: LEVELS DIFFER"
done | tee $OUT/summary.txt
cd $OUT && tar cJf logs.tar.xz logs && rm -rf logs
