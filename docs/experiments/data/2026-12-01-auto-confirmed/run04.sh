#!/bin/bash
# Session 2026-12-01 (8th), call 4, nvidia-h200: the one-block line at a
# mean degree of 4 (warp above): auto, thread and warp on the one-block
# graphs, bfs/sssp/cc/kcore; the GPU runtime tests.
set -u
cd "$(dirname "$0")/.."
W=/tmp/w; mkdir -p $W && tar -C $W -xJf .device-carry/r4.tar.xz
B=$W/bin; D=.device-carry/data
for a in bfs sssp cc kcore; do ln -sf $a-cuda $B/$a-cuda-auto; done
mkdir -p /tmp/keep; nvidia-smi > /tmp/keep/nvidia-smi.txt 2>&1
timeout 200 tools/bench/irgl-bench run real --bin $B --data $D --out /tmp/keep/m0 --work-dir /tmp/m0 \
  --runs 5 --warmup 1 --timeout 10 --confirm-auto 3 --budget 180 --schedules auto,thread,warp \
  --apps bfs,sssp,cc,kcore \
  --graphs tiny/karate.mtx.xz,tiny/dolphins.mtx.xz,spmv/west0067.mtx.xz,tiny/polbooks.mtx.xz,road/minnesota.mtx.xz,road/rome99.gr.xz,road/monaco.wel.xz \
  > /tmp/keep/m0.log 2>&1
timeout 120 $B/irgl_gpu_runtime_tests --gtest_filter='Outline.*:OutlineGrid.*:AutoInKernel.*' > /tmp/keep/gpu-tests.log 2>&1; echo "rc=$?" >> /tmp/keep/gpu-tests.log
rm -rf /tmp/keep/m0/real-logs
tar -C /tmp/keep -cJf $OUT/call4.tar.xz .
tail -n 3 /tmp/keep/m0.log /tmp/keep/gpu-tests.log
