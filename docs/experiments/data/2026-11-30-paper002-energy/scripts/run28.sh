#!/usr/bin/env bash
# Session of 2026-11-30: table paper002 with energy, one irgl-bench run per
# app of $APPS (each with its own budget), outputs packed into one tarball.
# Then $EXTRA (a script of this folder), if set.
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s28 && tar -xJf s28.tar.xz -C /tmp/s28
bin=/tmp/s28/bin
data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR /tmp/r28
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,power.limit --format=csv > /tmp/r28/gpu.txt; cat /tmp/r28/gpu.txt
for entry in $APPS; do
  app=${entry%%:*}; secs=${entry#*:}
  echo "== bench $app ($secs s)"
  timeout $((secs + 10)) python3 $root/tools/bench/irgl-bench run paper002 --bin $bin --data $data \
    --out /tmp/r28/bench-$app --work-dir /tmp/b28 --apps $app --runs 5 --energy-ms 700 \
    --budget $secs > /tmp/r28/bench-$app.log 2>&1
  echo "bench $app exit $? at $(( $(date +%s) - start )) s"; tail -1 /tmp/r28/bench-$app.log
  tar -C /tmp -cJf $OUT/r28.tar.xz r28
done
if [ -n "${EXTRA:-}" ]; then bash ./$EXTRA $bin $data /tmp/r28; fi
tar -C /tmp -cJf $OUT/r28.tar.xz r28
