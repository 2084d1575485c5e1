#!/usr/bin/env bash
# One H200: TWC (and ALB) walking a settling body's small vertices a
# thread each: bfs_do built with alb and twc checked against the CPU on
# the bfs_do cases, then timed against bfs and bfs_do (auto: thread).
set -u
c=$PWD/.device-carry
export IRGL_NO_PROGRESS=1
mkdir -p $c/s30 && tar xJf $c/s30.tar.xz -C $c/s30
b=$c/s30
export PATH=$b:$PATH
for v in alb twc; do
  timeout 100 python3 tests/lit/irglc/Inputs/run_cases.py --data tests/data --datasets /nonexistent --reference $b/bfs-do-cpu bfs $b/bfs-do-cuda-$v tests/lit/irglc/examples/Inputs/bfs-do.cases > /tmp/cases-$v.log 2>&1
  echo "cases bfs-do-cuda-$v: exit $? $(tail -1 /tmp/cases-$v.log)"
done
timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 9 $b/bfs-do-cuda-twc rmat:scale=12 --symmetrize --source 3 --quiet > /tmp/race.log 2>&1; echo "racecheck twc: exit $? $(grep SUMMARY /tmp/race.log)"
go="--symmetrize --cache-dir /tmp/gc --quiet"
for g in $c/data/powerlaw/cnr-2000.txt.xz $c/data/powerlaw/uk-2007-05-100000.txt.xz $c/data/powerlaw/ego-twitter-undirected.txt.xz rmat:scale=23 rmat:scale=24; do
  name=$(basename $g | tr ':=' '__')
  for p in bfs-cuda bfs-do-cuda bfs-do-cuda-alb bfs-do-cuda-twc; do
    timeout 100 $b/$p $g $go --source random --random-seed 3 --runs 5 --warmup 1 > /tmp/log.txt 2>&1 || echo "FAILED $name $p"
    echo "$name $p: $(grep '^time:' /tmp/log.txt | cut -c1-48)"
  done
done | tee $OUT/summary.txt
