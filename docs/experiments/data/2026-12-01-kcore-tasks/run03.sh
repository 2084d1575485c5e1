#!/bin/bash
# Session 2026-12-01 (10th), call 3, nvidia-h200: kcore's tasks at 4,096
# and 65,536 task slots per block (tasks-bench's setting), work stealing
# and static, the committed build and the one whose driver pool keeps its
# memory; three processes each, alternating, each the median of 9 runs.
set -u
cd "$(dirname "$0")/.."
W=/tmp/w; mkdir -p $W && tar -C $W -xJf .device-carry/r2.tar.xz; B=$W/bin; D=.device-carry/data
R=/tmp/r; mkdir -p $R
export IRGL_CACHE_DIR=/tmp/cache; mkdir -p $IRGL_CACHE_DIR
nvidia-smi -L > $R/nvidia-smi.txt
med() { timeout 60 "$@" --warmup 2 --runs 9 2>&1 | grep -E '^run ' | awk '{print $3}' | sort -n | sed -n 5p; }
f=$R/slots.txt
for g in $D/road/luxembourg_osm.mtx.xz $D/road/usroads.mtx.xz rmat:scale=20; do
  name=$(basename $g .xz)
  for rep in 1 2 3; do
    for s in work-stealing static; do
      for slots in 4096 65536; do
        echo "$name kcore $s-$slots-base rep$rep $(med $B/kcore-tasks-cuda.base $g --simple --k 3 --task-pool $s --task-slots $slots)" >> $f
        echo "$name kcore $s-$slots-kept rep$rep $(med $B/kcore-tasks-cuda.exp $g --simple --k 3 --task-pool $s --task-slots $slots)" >> $f
      done
    done
  done
  for s in work-stealing static; do
    echo "$name pool $s 65536: $(timeout 60 $B/kcore-tasks-cuda.base $g --simple --k 3 --task-pool $s --task-slots 65536 --warmup 2 --runs 9 2>&1 | grep -E '^(time|task pool )' | tr '\n' ' ')" >> $f
  done
done
timeout 60 $B/bfs-tasks-cuda.base rmat:scale=20 --source 923290 --runs 1 > $R/bfs-rmat20.txt 2>&1; echo "rc $?" >> $R/bfs-rmat20.txt
tar -C $R -czf $OUT/rN.tgz .
grep pool $f; tail -3 $R/bfs-rmat20.txt
