#!/bin/bash
# Strong scaling on RMAT: the single-GPU program against the parts on 1, 2, 4 GPUs.
# usage: scale.sh "22 24" "1 2 4" "oec cvc"
set -u
scales=$1 counts=$2 policies=$3
root=$(pwd)
bin=$root/.device-carry/bin
export IRGL_NO_PROGRESS=1 NCCL_NVLS_ENABLE=0 IRGL_CACHE_DIR=/tmp/cache
mkdir -p $IRGL_CACHE_DIR
opts_for() { case $1 in sssp) echo "--weights=hash:100";; cc) echo "--symmetrize";; kcore) echo "--simple --k 3";; *) echo;; esac; }
median() { sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p' "$1"; }
for s in $scales; do
  for app in bfs sssp cc pr kcore; do
    g="rmat:scale=$s"
    o=$(opts_for $app)
    single=$bin/$app-cuda; [ $app = kcore ] && single=$bin/kcore-cuda
    timeout 200 $single $g $o --runs 3 --warmup 1 > /tmp/one.log 2>&1
    line="$app rmat$s one-gpu $(median /tmp/one.log)"
    for p in $policies; do
      for n in $counts; do
        timeout 200 $root/tools/irgl-launch -n $n $bin/$app-cuda-parts $g $o --partition $p --runs 3 --warmup 1 > /tmp/p.log 2>&1
        rc=$?
        line="$line | $p/$n $(median /tmp/p.log)$([ $rc = 0 ] || echo "(rc$rc)")"
        grep -h "^parts:" /tmp/p.log | head -1 >> $OUT/parts-lines.txt
      done
    done
    echo "$line" | tee -a $OUT/scale.txt
  done
done
