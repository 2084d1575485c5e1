#!/bin/bash
# x4: multi_gpu.sh (1, 2, 4 GPUs, every policy and form), the example matrix
# on 4 GPUs per policy, then strong scaling on RMAT 25 up to 4 GPUs.
set -u
root=$(pwd)
bash .device-carry/unpack.sh
bin=$root/.device-carry/bin
export IRGL_NO_PROGRESS=1 NCCL_NVLS_ENABLE=0
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; nvidia-smi topo -m; nproc; free -g; } > $OUT/gpus.txt 2>&1
head -3 $OUT/gpus.txt
timeout ${CTEST_S:-150} tests/integration/multi_gpu.sh $root $bin rmat:scale=14 > $OUT/multi_gpu.txt 2>&1
echo "multi_gpu.sh rc=$? $(grep -c ^PASS $OUT/multi_gpu.txt) pass, $(grep -cE '^(FAILED|WRONG)' $OUT/multi_gpu.txt) bad"
mkdir -p /tmp/checks
for policy in ${POLICIES:-oec iec cvc}; do
  WORK_DIR=/tmp/w-4-$policy JOBS=4 LAUNCHER="$root/tools/irgl-launch -n 4" APPS="bfs sssp cc pr kcore" \
    EXTRA_GRAPHS="rmat:scale=18: grid:rows=300,cols=300:" timeout ${CHECK_S:-60} $root/tools/gpu/check-examples.sh $bin $root/.device-carry/data \
    cuda-parts@partition=$policy > /tmp/checks/check-4-$policy.txt 2>&1
  echo "n=4 $policy: rc=$? $(grep -c PASS /tmp/checks/check-4-$policy.txt) pass, $(grep -cE 'FAILED|WRONG|DIFFERS' /tmp/checks/check-4-$policy.txt) bad"
done
for d in /tmp/w-*; do grep -lE "error|terminate|FAIL" $d/*.log 2>/dev/null | head -2; done > /tmp/checks/errlogs.txt
for l in $(head -3 /tmp/checks/errlogs.txt); do echo "== $l"; tail -20 $l; done > /tmp/checks/errtails.txt 2>&1
tar czf $OUT/checks.tgz -C /tmp checks
bench() {  # OUTNAME BUDGET ARGS...
  local name=$1 budget=$2; shift 2
  timeout $budget python3 tools/bench/irgl-bench run scaling --bin $bin --data $root/.device-carry/data \
    --out /tmp/$name --max-gpus 4 --runs 3 --budget $((budget - 50)) --work-dir /tmp/bench "$@" > $OUT/$name.txt 2>&1
  echo "$name rc=$?"; grep -E "ms$|not run|cells in|failed" $OUT/$name.txt | tail -30
  grep -H "parts:" /tmp/$name/scaling-logs/*.log 2>/dev/null | sed 's|.*/||' >> $OUT/parts-lines.txt
  tar czf $OUT/$name.tgz -C /tmp $name
}
bench scaling25 ${B25:-250} --graphs rmat:scale=25 --apps bfs,sssp,cc,pr --schedules 1gpu,cvc-2,cvc-4,iec-4
