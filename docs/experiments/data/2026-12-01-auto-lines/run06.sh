#!/bin/bash
# Session 2026-12-01 (9th), call 6, nvidia-h200: the committed auto (15dadfe)
# against every fixed schedule (builds of 1abaf32's sources: their schedules
# are unchanged) on the FEM, road and tiny graphs, bfs, sssp, cc and kcore,
# with --confirm-auto 3.
set -u
cd "$(dirname "$0")/.."
W=/tmp/w; mkdir -p $W && tar -C $W -xJf .device-carry/r12.tar.xz
B=$W/bin; D=.device-carry/data
for a in bfs sssp cc kcore; do ln -sf $a-cuda $B/$a-cuda-auto; done
mkdir -p /tmp/keep
nvidia-smi -L > /tmp/keep/nvidia-smi.txt 2>&1
S=alb,auto,twc,lb,merge-path,warp,block,thread
G=spmv/bcsstk16.mtx.xz,spmv/bcsstk13.mtx.xz,spmv/bips98_606.mtx.xz,spmv/west0067.mtx.xz
G=$G,road/luxembourg_osm.mtx.xz,road/moscow_roads.gr.xz,road/moscow_roads.txt.xz,road/usroads.mtx.xz
G=$G,road/minnesota.mtx.xz,road/rome99.gr.xz,road/monaco.wel.xz
G=$G,tiny/karate.mtx.xz,tiny/dolphins.mtx.xz,tiny/polbooks.mtx.xz,tiny/netscience.mtx.xz,tiny/chesapeake.mtx.xz
timeout 345 tools/bench/irgl-bench run real --bin $B --data $D --apps bfs,sssp,cc,kcore \
   --out /tmp/res/k0 --work-dir /tmp/k0 --runs 5 --warmup 1 --timeout 10 --confirm-auto 3 --budget 305 \
   --schedules $S --graphs $G > /tmp/keep/bench.log 2>&1
echo "rc $?" >> /tmp/keep/bench.log
cp -r /tmp/res /tmp/keep/ 2>/dev/null
tar -C /tmp/keep -cJf $OUT/call6.tar.xz .
tail -n 5 /tmp/keep/bench.log
