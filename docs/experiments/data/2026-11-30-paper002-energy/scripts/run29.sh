#!/usr/bin/env bash
# Session of 2026-11-30, call 3: auto with merge-path for web graphs against
# the previous auto (autoold) and fixed schedules; the new auto's matrix;
# paper002's RMAT 22 pr/spmv cells; pr on RMAT 24 against the gather bound.
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s29 && tar -xJf s29.tar.xz -C /tmp/s29
bin=/tmp/s29/bin
data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR /tmp/r29
pack() { tar -C /tmp -cJf $OUT/r29.tar.xz r29; }
nvidia-smi --query-gpu=name,driver_version --format=csv > /tmp/r29/gpu.txt
echo "== matrix of the new auto"
APPS="bfs sssp cc kcore" JOBS=12 WORK_DIR=/tmp/m29 timeout 110 \
  $root/tools/gpu/check-examples.sh $bin $data cuda > /tmp/r29/matrix-auto.log 2>&1; echo "matrix exit $?"; tail -1 /tmp/r29/matrix-auto.log
grep -v " PASS$" /tmp/r29/matrix-auto.log | grep -v "^app " | head -10
echo "== auto picks"
timeout 230 python3 $root/tools/bench/irgl-bench run paper002 --bin $bin --data $data --out /tmp/r29/picks \
  --work-dir /tmp/b29 --apps bfs,sssp,cc,kcore --schedules autoold,auto,merge-path,alb,warp --runs 7 \
  --budget 210 --graphs powerlaw/cnr-2000.txt.xz,powerlaw/uk-2007-05-100000.txt.xz,powerlaw/ego-twitter-undirected.txt.xz,powerlaw/musae_git_edges.csv.xz,rmat:scale=16,rmat:scale=18,rmat:scale=20 \
  > /tmp/r29/picks.log 2>&1; echo "picks exit $? at $(( $(date +%s) - start )) s"; tail -1 /tmp/r29/picks.log
pack
echo "== paper002 rmat22 pr, spmv"
timeout 110 python3 $root/tools/bench/irgl-bench run paper002 --bin $bin --data $data --out /tmp/r29/rmat22 \
  --work-dir /tmp/b29 --apps spmv,pr --runs 5 --energy-ms 700 --budget 95 --timeout 30 --graphs rmat:scale=22 \
  > /tmp/r29/rmat22.log 2>&1; echo "rmat22 exit $? at $(( $(date +%s) - start )) s"; tail -1 /tmp/r29/rmat22.log
pack
left=$((560 - $(date +%s) + start))
echo "== pr rmat24 ($left s)"
timeout $left python3 $root/tools/bench/irgl-bench run paper002 --bin $bin --data $data --out /tmp/r29/pr24 \
  --work-dir /tmp/b29 --apps pr --schedules auto --runs 3 --budget $((left - 20)) --graphs rmat:scale=24 \
  > /tmp/r29/pr24.log 2>&1; echo "pr24 exit $? at $(( $(date +%s) - start )) s"; tail -3 /tmp/r29/pr24.log
pack
