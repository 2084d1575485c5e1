#!/usr/bin/env bash
# Session of 2026-11-30, call 5: table peers (irglc's default build and cc by
# union-find against GAP on the host's cores) on the H200, after the
# merge-path rule.
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s31 && tar -xJf s31.tar.xz -C /tmp/s31
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR /tmp/r31
nproc > /tmp/r31/host.txt; lscpu | grep -E "Model name|^CPU\(s\)" >> /tmp/r31/host.txt
timeout 480 python3 $root/tools/bench/irgl-bench run peers --bin /tmp/s31/bin --gap /tmp/s31/gap \
  --data $(pwd)/data --out /tmp/r31/peers --work-dir /tmp/b31 --runs 7 --budget 440 \
  > /tmp/r31/peers.log 2>&1; echo "peers exit $? at $(( $(date +%s) - start )) s"; tail -2 /tmp/r31/peers.log
tar -C /tmp -cJf $OUT/r31.tar.xz r31
