#!/bin/bash
# x4: parts that load only their share of a generated graph. multi_gpu.sh
# (share path, irgl-check), then weighted symmetric RMAT 28 (over one 80 GB
# card) on 4 GPUs under two policies, answers compared; then RMAT 26.
set -u
root=$(pwd)
bash .device-carry/unpack.sh
bin=$root/.device-carry/bin
export IRGL_NO_PROGRESS=1 NCCL_NVLS_ENABLE=0
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; nproc; free -g; } > $OUT/gpus.txt 2>&1
head -2 $OUT/gpus.txt
[ "${CTEST_S:-90}" -gt 0 ] && APPS="${CHECK_APPS:-bfs sssp cc pr kcore}" COUNTS="${CHECK_COUNTS:-1 2 4}" timeout ${CTEST_S:-90} tests/integration/multi_gpu.sh $root $bin rmat:scale=14 > $OUT/multi_gpu.txt 2>&1
echo "multi_gpu.sh rc=$? $(grep -c ^PASS $OUT/multi_gpu.txt) pass, $(grep -cE '^(FAILED|WRONG)' $OUT/multi_gpu.txt) bad"
big() {  # APP POLICY SCALE OPTIONS...
  local app=$1 policy=$2 scale=$3; shift 3
  local log=$OUT/big-$app-$policy-$scale.log
  timeout ${BIG_S:-200} tools/irgl-launch -n 4 $bin/$app-cuda-parts rmat:scale=$scale "$@" \
    --partition $policy --runs 3 --warmup 1 -o /tmp/big-$app-$policy.out > $log 2>&1
  echo "$app $policy rmat$scale rc=$? $(grep -E '^graph|^time:|^parts:|^result|^load' $log | tr '\n' ' ')"
}
big sssp oec ${BIG_SCALE:-28} --symmetrize --weights=hash:8 --source random
big sssp cvc ${BIG_SCALE:-28} --symmetrize --weights=hash:8 --source random
cmp /tmp/big-sssp-oec.out /tmp/big-sssp-cvc.out && echo "sssp oec and cvc answers identical ($(wc -l < /tmp/big-sssp-oec.out) lines)"
head -c 300 /tmp/big-sssp-oec.out > $OUT/big-sssp-head.txt
rm -f /tmp/big-*.out
bench() {  # OUTNAME BUDGET ARGS...
  local name=$1 budget=$2; shift 2
  timeout $budget python3 tools/bench/irgl-bench run scaling --bin $bin --data $root/.device-carry/data \
    --out /tmp/$name --max-gpus 4 --runs 3 --budget $((budget - 60)) --work-dir /tmp/bench "$@" > $OUT/$name.txt 2>&1
  echo "$name rc=$?"; grep -E "ms$|not run|cells in|failed" $OUT/$name.txt | tail -30
  grep -H "parts:" /tmp/$name/scaling-logs/*.log 2>/dev/null | sed 's|.*/||' >> $OUT/parts-lines.txt
  tar czf $OUT/$name.tgz -C /tmp $name
}
B26=$(( ${END_S:-560} - SECONDS ))
echo "RMAT 26 budget ${B26} s"
[ "${B26}" -gt 120 ] && bench scaling26 $B26 --graphs rmat:scale=26 --apps ${APPS26:-pr,cc,bfs,sssp} --schedules 1gpu,iec-4,cvc-4
