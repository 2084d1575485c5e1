#!/bin/bash
# x2: the multi-GPU CTest script, the example matrix on 2 GPUs, then strong scaling.
set -u
root=$(pwd)
bash .device-carry/unpack.sh
bin=$root/.device-carry/bin
export IRGL_NO_PROGRESS=1 NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpus.txt 2>&1
timeout ${CTEST_S:-130} tests/integration/multi_gpu.sh $root $bin rmat:scale=14 > $OUT/multi_gpu.txt 2>&1
echo "multi_gpu.sh rc=$? $(grep -c ^PASS $OUT/multi_gpu.txt) pass, $(grep -cE '^(FAILED|WRONG)' $OUT/multi_gpu.txt) bad"
for policy in ${POLICIES:-oec iec cvc}; do
  WORK_DIR=/tmp/w-2-$policy JOBS=6 LAUNCHER="$root/tools/irgl-launch -n 2" APPS="bfs sssp cc pr kcore" \
    EXTRA_GRAPHS="rmat:scale=18: grid:rows=300,cols=300:" timeout ${CHECK_S:-85} $root/tools/gpu/check-examples.sh $bin $root/.device-carry/data \
    cuda-parts@partition=$policy > $OUT/check-2-$policy.txt 2>&1
  echo "n=2 $policy: rc=$? $(grep -c PASS $OUT/check-2-$policy.txt) pass, $(grep -cE 'FAILED|WRONG|DIFFERS' $OUT/check-2-$policy.txt) bad"
done
for d in /tmp/w-*; do grep -lE "error|terminate|FAIL" $d/*.log 2>/dev/null | head -2; done > $OUT/errlogs.txt
for l in $(head -3 $OUT/errlogs.txt); do echo "== $l"; tail -20 $l; done > $OUT/errtails.txt 2>&1
timeout ${BENCH_S:-230} python3 tools/bench/irgl-bench run scaling --bin $bin --data $root/.device-carry/data \
  --out /tmp/scaling --graphs ${BENCH_GRAPHS:-rmat:scale=22,rmat:scale=24} --max-gpus 2 --runs 3 \
  --schedules 1gpu,oec-2,iec-2,cvc-2 --budget $(( ${BENCH_S:-230} - 40 )) --work-dir /tmp/bench > $OUT/bench.txt 2>&1
echo "bench rc=$?"; grep -E "ms$|not run|cells in" $OUT/bench.txt | tail -45
grep -H "parts:" /tmp/scaling/scaling-logs/*.log 2>/dev/null | sed 's|.*/||' > $OUT/parts-lines.txt
tar czf $OUT/scaling.tgz -C /tmp scaling
