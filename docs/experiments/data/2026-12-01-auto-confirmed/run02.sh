#!/bin/bash
# Session 2026-12-01 (8th), call 2, nvidia-h200-x2: auto's one-block warp
# pick (polbooks, with karate, dolphins, west0067 beside it) and the cells
# call 1 left (luxembourg, usroads, moscow_roads.gr, uk-2007); GPU tests.
set -u
cd "$(dirname "$0")/.."
W=/tmp/w; mkdir -p $W && tar -C $W -xJf .device-carry/r2.tar.xz
B=$W/bin; D=.device-carry/data
for a in bfs sssp cc pr kcore tc spmv; do ln -sf $a-cuda $B/$a-cuda-auto; done
nvidia-smi > $OUT/nvidia-smi.txt 2>&1
cat .device-carry/REVISION > $OUT/revision.txt
S=alb,auto,twc,lb,merge-path,warp,block,thread
bench() { # GPU NAME SECONDS ARGS...
  local gpu=$1 name=$2 secs=$3; shift 3
  CUDA_VISIBLE_DEVICES=$gpu timeout $secs tools/bench/irgl-bench run real --bin $B --data $D \
    --out /tmp/res/$name --work-dir /tmp/$name --runs 5 --warmup 1 --timeout 10 --confirm-auto 3 \
    --budget $((secs - 30)) "$@" > $OUT/$name.log 2>&1
  mkdir -p $OUT/$name && cp /tmp/res/$name/real.json /tmp/res/$name/real.md $OUT/$name/ 2>/dev/null
}
(bench 0 h0 330 --schedules $S \
   --graphs tiny/polbooks.mtx.xz,tiny/karate.mtx.xz,tiny/dolphins.mtx.xz,spmv/west0067.mtx.xz,road/luxembourg_osm.mtx.xz,road/usroads.mtx.xz) &
(for c in "pr bcsstk16 spmv/bcsstk16.mtx.xz" "cc bcsstk13 spmv/bcsstk13.mtx.xz --symmetrize" \
          "cc bcsstk16 spmv/bcsstk16.mtx.xz --symmetrize" "kcore cnr-2000 powerlaw/cnr-2000.txt.xz --simple --k 3"; do
   set -- $c; app=$1 name=$2 file=$3; shift 3
   for b in auto warp block alb; do
     echo "== $app $name $b" >> $OUT/auto-picks.txt
     CUDA_VISIBLE_DEVICES=1 timeout 30 $B/$app-cuda-$b $D/$file "$@" --warmup 1 --runs 5 2>&1 \
       | grep -E "^run [0-9]+:|schedule auto|outline|one block|rounds" >> $OUT/auto-picks.txt
   done
 done
 CUDA_VISIBLE_DEVICES=1 timeout 150 $B/irgl_gpu_runtime_tests \
   --gtest_filter='Outline.*:OutlineGrid.*:AutoInKernel.*:FrontierForms.*' > $OUT/gpu-tests.log 2>&1; echo "rc=$?" >> $OUT/gpu-tests.log
 CUDA_VISIBLE_DEVICES=1 timeout 90 compute-sanitizer --tool memcheck $B/irgl_gpu_runtime_tests \
   --gtest_filter='Outline.AutoRoundsOnOneBlockTakeWarpOnDenserGraphs:Outline.SmallGraphLoopRunsInSharedMemory' > $OUT/memcheck.log 2>&1; echo "rc=$?" >> $OUT/memcheck.log
 CUDA_VISIBLE_DEVICES=1 timeout 90 compute-sanitizer --tool racecheck $B/irgl_gpu_runtime_tests \
   --gtest_filter='Outline.AutoRoundsOnOneBlockTakeWarpOnDenserGraphs' > $OUT/racecheck.log 2>&1; echo "rc=$?" >> $OUT/racecheck.log
 bench 1 h1 200 --schedules $S \
   --graphs road/moscow_roads.gr.xz,powerlaw/uk-2007-05-100000.txt.xz --apps bfs,sssp,cc,pr,kcore,spmv
 bench 1 h1tc 40 --schedules alb,auto,twc,lb,merge-path,block --apps tc \
   --graphs road/moscow_roads.gr.xz,powerlaw/uk-2007-05-100000.txt.xz) &
wait
tar -C /tmp/res -cJf $OUT/logs.tar.xz . 2>/dev/null
ls -R $OUT | head -20
