#!/bin/bash
# Session 2026-12-01 (8th), call 3, nvidia-h200-x2: the final build (one-block
# warp pick; auto's warp keeps passes over all vertices). GPU 0: the graphs
# whose cells the changes touch (polbooks; bips98_606 and bcsstk16 pr, spmv)
# with controls, every build; GPU 1: GPU runtime tests, sanitizers.
set -u
cd "$(dirname "$0")/.."
W=/tmp/w; mkdir -p $W && tar -C $W -xJf .device-carry/r3.tar.xz
B=$W/bin; D=.device-carry/data
for a in bfs sssp cc pr kcore tc spmv; do ln -sf $a-cuda $B/$a-cuda-auto; done
mkdir -p /tmp/keep
nvidia-smi > /tmp/keep/nvidia-smi.txt 2>&1
S=alb,auto,twc,lb,merge-path,warp,block,thread
(CUDA_VISIBLE_DEVICES=0 timeout 330 tools/bench/irgl-bench run real --bin $B --data $D \
   --out /tmp/res/k0 --work-dir /tmp/k0 --runs 5 --warmup 1 --timeout 10 --confirm-auto 3 --budget 300 \
   --schedules $S --graphs tiny/polbooks.mtx.xz,spmv/bips98_606.mtx.xz,spmv/bcsstk16.mtx.xz,spmv/bcsstk13.mtx.xz,tiny/karate.mtx.xz,tiny/dolphins.mtx.xz \
   > /tmp/keep/k0.log 2>&1) &
(export CUDA_VISIBLE_DEVICES=1
 timeout 240 $B/irgl_gpu_runtime_tests > /tmp/keep/gpu-tests.log 2>&1; echo "rc=$?" >> /tmp/keep/gpu-tests.log
 for tool in memcheck racecheck synccheck; do
   timeout 60 compute-sanitizer --tool $tool $B/irgl_gpu_runtime_tests \
     --gtest_filter='Outline.AutoRoundsOnOneBlockTakeWarpOnDenserGraphs:Outline.AutoWarpKeepsItsPassesOverAllVertices' \
     > /tmp/keep/$tool.log 2>&1; echo "rc=$?" >> /tmp/keep/$tool.log
 done) &
wait
cp -r /tmp/res /tmp/keep/ 2>/dev/null
tar -C /tmp/keep -cJf $OUT/call3.tar.xz .
tail -n 3 /tmp/keep/k0.log /tmp/keep/gpu-tests.log /tmp/keep/*check.log
