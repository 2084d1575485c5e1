#!/bin/bash
# Multi-GPU check: every app x policy x GPU count against the CPU builds.
# usage: parts.sh "1 2" [extra graphs]
set -u
counts=$1
extra=${2:-"rmat:scale=18: grid:rows=300,cols=300:"}
root=$(pwd)
bin=$root/.device-carry/bin
data=$root/.device-carry/data
export IRGL_NO_PROGRESS=1 NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpus.txt 2>&1
nvidia-smi topo -m >> $OUT/gpus.txt 2>&1
for n in $counts; do
  for policy in oec iec cvc; do
    WORK_DIR=/tmp/w-$n-$policy JOBS=4 LAUNCHER="$root/tools/irgl-launch -n $n" APPS="${APPS:-bfs sssp cc pr kcore}" \
      EXTRA_GRAPHS="$extra" timeout 280 $root/tools/gpu/check-examples.sh $bin $data \
      cuda-parts@partition=$policy > $OUT/check-$n-$policy.txt 2>&1
    echo "n=$n $policy: rc=$? $(grep -c PASS $OUT/check-$n-$policy.txt) pass, $(grep -cE 'FAILED|WRONG|DIFFERS' $OUT/check-$n-$policy.txt) bad" >> $OUT/summary.txt
  done
done
# the first failure's log
f=$(grep -lE 'FAILED|WRONG|DIFFERS' /tmp/w-*/*.log 2>/dev/null | head -1)
for d in /tmp/w-*; do grep -lE "error|terminate" $d/*.log 2>/dev/null | head -2; done > $OUT/errlogs.txt
for l in $(head -3 $OUT/errlogs.txt); do echo "== $l"; tail -20 $l; done > $OUT/errtails.txt 2>&1
cat $OUT/summary.txt
