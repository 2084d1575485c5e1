#!/bin/bash
# Session 2026-12-01 (8th), call 1, nvidia-h200-x2: issue 20 (auto against
# every fixed schedule, with confirmation re-runs) on two GPUs side by side,
# whole graphs per GPU; issue 24 usroads sssp sweep on GPU 1 first.
set -u
cd "$(dirname "$0")/.."
W=/tmp/w; mkdir -p $W && tar -C $W -xJf .device-carry/r1.tar.xz
B=$W/bin; D=.device-carry/data
for a in bfs sssp cc pr kcore tc spmv; do ln -sf $a-cuda $B/$a-cuda-auto; done
nvidia-smi > $OUT/nvidia-smi.txt 2>&1
cat .device-carry/REVISION > $OUT/revision.txt
S=alb,auto,twc,lb,merge-path,warp,block,thread
bench() { # GPU OUTNAME SECONDS ARGS...
  local gpu=$1 name=$2 secs=$3; shift 3
  CUDA_VISIBLE_DEVICES=$gpu timeout $secs tools/bench/irgl-bench run real --bin $B --data $D \
    --out $OUT/$name --work-dir /tmp/$name --runs 5 --warmup 1 --timeout 10 --confirm-auto 3 \
    --budget $((secs - 40)) "$@" > $OUT/$name.log 2>&1
}
usroads() {
  local f=$OUT/usroads-sssp.txt
  export CUDA_VISIBLE_DEVICES=1
  for shared in auto off; do for chain in 1 2 3 4; do for blocks in 0 33 66 132; do
    printf 'shared %s chain %s blocks %s: ' $shared $chain $blocks >> $f
    timeout 20 $B/sssp-cuda $D/road/usroads.mtx.xz --source 58610 --weights=hash:100 \
      --outline-shared $shared --chain $chain --outline-blocks $blocks --warmup 2 --runs 9 \
      2>&1 | grep -E '^run ' | awk '{print $3}' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)], "ms median of", NR}' >> $f
  done; done; done
  unset CUDA_VISIBLE_DEVICES
}
(bench 0 g0 570 --schedules $S \
   --graphs tiny/karate.mtx.xz,tiny/chesapeake.mtx.xz,tiny/dolphins.mtx.xz,tiny/polbooks.mtx.xz,tiny/netscience.mtx.xz,spmv/west0067.mtx.xz,spmv/bips98_606.mtx.xz,spmv/bcsstk13.mtx.xz,spmv/bcsstk16.mtx.xz,road/minnesota.mtx.xz,road/rome99.gr.xz,road/monaco.wel.xz,road/luxembourg_osm.mtx.xz,road/usroads.mtx.xz) &
(usroads
 bench 1 g1 200 --schedules $S --apps bfs,sssp,cc,pr,kcore,spmv \
   --graphs powerlaw/musae_git_edges.csv.xz,powerlaw/ego-twitter-undirected.txt.xz,powerlaw/cnr-2000.txt.xz,powerlaw/uk-2007-05-100000.txt.xz
 bench 1 g1tc 60 --schedules alb,auto,twc,lb,merge-path,block --apps tc \
   --graphs powerlaw/musae_git_edges.csv.xz,powerlaw/ego-twitter-undirected.txt.xz,powerlaw/cnr-2000.txt.xz,powerlaw/uk-2007-05-100000.txt.xz
 bench 1 g1big 90 --schedules $S --graphs road/moscow_roads.txt.xz,road/moscow_roads.gr.xz
 bench 1 g1gen 170 --schedules $S --apps bfs,sssp,cc,pr,kcore,spmv --graphs grid:1000x1000,rmat:scale=22) &
wait
