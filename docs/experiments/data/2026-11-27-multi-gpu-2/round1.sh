#!/bin/bash
# x2: correctness of the new exchange on 2 GPUs, then strong scaling on RMAT 22/24.
set -u
root=$(pwd)
bash .device-carry/unpack.sh
bin=$root/.device-carry/bin
export IRGL_NO_PROGRESS=1 NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpus.txt 2>&1
for policy in oec iec cvc; do
  WORK_DIR=/tmp/w-2-$policy JOBS=4 LAUNCHER="$root/tools/irgl-launch -n 2" APPS="bfs sssp cc pr kcore" \
    EXTRA_GRAPHS="rmat:scale=18: grid:rows=300,cols=300:" timeout ${CHECK_S:-110} $root/tools/gpu/check-examples.sh $bin $root/.device-carry/data \
    cuda-parts@partition=$policy > $OUT/check-2-$policy.txt 2>&1
  echo "n=2 $policy: rc=$? $(grep -c PASS $OUT/check-2-$policy.txt) pass, $(grep -cE 'FAILED|WRONG|DIFFERS' $OUT/check-2-$policy.txt) bad" >> $OUT/summary.txt
done
for d in /tmp/w-*; do grep -lE "error|terminate|FAIL" $d/*.log 2>/dev/null | head -2; done > $OUT/errlogs.txt
for l in $(head -3 $OUT/errlogs.txt); do echo "== $l"; tail -20 $l; done > $OUT/errtails.txt 2>&1
cat $OUT/summary.txt
timeout ${BENCH_S:-230} python3 tools/bench/irgl-bench run scaling --bin $bin --data $root/.device-carry/data \
  --out $OUT/scaling --graphs ${BENCH_GRAPHS:-rmat:scale=22,rmat:scale=24} --max-gpus 2 --runs 3 \
  --schedules 1gpu,oec-2,iec-2,cvc-2 --budget $(( ${BENCH_S:-230} - 40 )) --work-dir /tmp/bench > $OUT/bench.txt 2>&1
echo "bench rc=$?"; tail -30 $OUT/bench.txt
grep -H "parts:" $OUT/scaling/scaling-logs/*.log 2>/dev/null | head -40 > $OUT/parts-lines.txt
