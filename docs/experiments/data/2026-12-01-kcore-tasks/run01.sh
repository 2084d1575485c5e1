#!/bin/bash
# Session 2026-12-01 (10th), call 1, nvidia-h200: where kcore's tasks
# spend their constant 0.3 ms (docs/tasks.md): the run's time against the
# pool's, per scheme, and an nsys trace of the CUDA calls per run.
set -u
cd "$(dirname "$0")/.."
W=/tmp/w; mkdir -p $W && tar -C $W -xJf .device-carry/r1.tar.xz; B=$W/bin; D=.device-carry/data
R=/tmp/r; mkdir -p $R
export IRGL_CACHE_DIR=/tmp/cache; mkdir -p $IRGL_CACHE_DIR
nvidia-smi -L > $R/nvidia-smi.txt
which nsys ncu > $R/tools.txt 2>&1; ls /usr/local/cuda/bin >> $R/tools.txt 2>&1
f=$R/kcore.txt
for g in $D/road/luxembourg_osm.mtx.xz $D/road/usroads.mtx.xz rmat:scale=20; do
  for s in work-stealing static; do
    echo "== $(basename $g) tasks $s" >> $f
    timeout 60 $B/kcore-tasks-cuda $g --simple --k 3 --task-pool $s --warmup 2 --runs 9 2>&1 | grep -E '^(time|task pool|run )' >> $f
  done
  echo "== $(basename $g) rounds" >> $f
  timeout 60 $B/kcore-cuda $g --simple --k 3 --warmup 2 --runs 9 2>&1 | grep -E '^(time|run )' >> $f
done
NSYS=$(command -v nsys || ls /usr/local/cuda*/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -1)
if [ -n "$NSYS" ]; then
  cd /tmp && timeout 120 $NSYS profile -t cuda -o /tmp/kt --force-overwrite true $B/kcore-tasks-cuda $OLDPWD/$D/road/luxembourg_osm.mtx.xz --simple --k 3 --warmup 2 --runs 9 > $R/nsys-run.txt 2>&1
  timeout 120 $NSYS stats -r cuda_api_sum,cuda_gpu_kern_sum,cuda_gpu_mem_time_sum,cuda_api_trace /tmp/kt.nsys-rep > $R/nsys-stats.txt 2>&1
  cd - > /dev/null
fi
tar -C $R -czf $OUT/rN.tgz .
cat $f | grep -v '^run '
head -5 $R/nsys-stats.txt 2>/dev/null; wc -l $R/nsys-stats.txt 2>/dev/null
