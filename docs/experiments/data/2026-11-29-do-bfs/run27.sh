#!/usr/bin/env bash
# One H200: bfs_do.irgl as irglc now emits it (settling break), under auto,
# warp, twc and lb, against the CPU program on the bfs_do cases; then
# bfs_do (auto) against bfs on symmetric RMAT 22/24 and a road graph.
set -u
c=$PWD/.device-carry
export IRGL_NO_PROGRESS=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/env.txt; cat $OUT/env.txt
mkdir -p $c/s27 && tar xJf $c/s27.tar.xz -C $c/s27
b=$c/s27
mkdir -p $OUT/logs
rc=tests/lit/irglc/Inputs/run_cases.py
export PATH=$b:$PATH  # irgl-check
for v in "" -warp -twc -lb; do
  timeout 200 python3 $rc --data tests/data --datasets /nonexistent --reference $b/bfs-do-cpu bfs $b/bfs-do-cuda$v tests/lit/irglc/examples/Inputs/bfs-do.cases > $OUT/logs/cases$v.log 2>&1
  echo "cases bfs-do-cuda$v: exit $? $(tail -1 $OUT/logs/cases$v.log)"
done
xz -dc $c/data/road/moscow_roads.gr.xz > /tmp/moscow.gr
go="--symmetrize --cache-dir /tmp/gc --quiet"
for g in rmat:scale=22 rmat:scale=24 /tmp/moscow.gr; do
  name=$(basename $g | tr ':=' '__')
  for p in bfs-cuda bfs-do-cuda; do
    timeout 200 $b/$p $g $go --source random --random-seed 3 --runs 7 --warmup 2 > $OUT/logs/$name-$p.log 2>&1 || echo "FAILED $name $p"
    echo "$name $p: $(grep '^time:' $OUT/logs/$name-$p.log) | $(grep '^schedule' $OUT/logs/$name-$p.log)"
  done
  timeout 200 $b/bfs-cuda $g $go --source 7 --output /tmp/ref.txt --force > /dev/null 2>&1
  timeout 200 $b/bfs-do-cuda $g $go --source 7 --output /tmp/do.txt --force > /dev/null 2>&1
  cmp -s <(grep -v '^#' /tmp/ref.txt) <(grep -v '^#' /tmp/do.txt) && echo "$name: levels equal (source 7)" || echo "$name: LEVELS DIFFER"
done | tee $OUT/summary.txt
cd $OUT && tar cJf logs.tar.xz logs && rm -rf logs
