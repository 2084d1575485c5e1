#!/bin/bash
# Session 2026-12-01 (10th), call 2, nvidia-h200: kcore's and bfs's tasks
# with the driver pool's device memory kept across runs (an experimental
# build: the pool's buffers static) against the committed build; three
# processes each, alternating, each the median of 9 runs.
set -u
cd "$(dirname "$0")/.."
W=/tmp/w; mkdir -p $W && tar -C $W -xJf .device-carry/r2.tar.xz; B=$W/bin; D=.device-carry/data
R=/tmp/r; mkdir -p $R
export IRGL_CACHE_DIR=/tmp/cache; mkdir -p $IRGL_CACHE_DIR
nvidia-smi -L > $R/nvidia-smi.txt
med() { timeout 60 "$@" --warmup 2 --runs 9 2>&1 | grep -E '^run ' | awk '{print $3}' | sort -n | sed -n 5p; }
f=$R/kept.txt
for spec in "road/luxembourg_osm.mtx.xz 6397" "road/usroads.mtx.xz 58610" "rmat:scale=20 923290" "powerlaw/cnr-2000.txt.xz 217849"; do
  set -- $spec; src=$2; case $1 in rmat:*) g=$1;; *) g=$D/$1;; esac; name=$(basename $1 .xz)
  for app in kcore bfs; do
    case $app in bfs) o="--source $src";; kcore) o="--simple --k 3";; esac
    timeout 60 $B/$app-tasks-cuda.base $g $o --runs 1 --output /tmp/a.out --force > /dev/null 2>&1
    timeout 60 $B/$app-tasks-cuda.exp $g $o --runs 1 --output /tmp/b.out --force > /dev/null 2>&1
    cmp -s /tmp/a.out /tmp/b.out && echo "$name $app answers: same" >> $f || echo "$name $app answers: DIFFER" >> $f
    for rep in 1 2 3; do
      echo "$name $app base rep$rep $(med $B/$app-tasks-cuda.base $g $o)" >> $f
      echo "$name $app kept rep$rep $(med $B/$app-tasks-cuda.exp $g $o)" >> $f
    done
    echo "$name $app pool: $(timeout 60 $B/$app-tasks-cuda.exp $g $o --warmup 2 --runs 9 2>&1 | grep -E '^task pool')" >> $f
  done
done
tar -C $R -czf $OUT/rN.tgz .
cat $f
