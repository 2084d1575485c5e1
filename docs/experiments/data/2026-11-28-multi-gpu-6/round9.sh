#!/bin/bash
# x4: the iec reduce skip and the slowest part's computation. multi_gpu.sh
# on 4 GPUs (CHECK_S), then irgl-bench scaling stages, STAGES="APPS|SCHEDULES|GRAPHS|BUDGET_S;...".
set -u
root=$(pwd)
[ -d .device-carry/bin ] || bash .device-carry/unpack.sh
bin=$root/.device-carry/bin
export IRGL_NO_PROGRESS=1 NCCL_NVLS_ENABLE=0
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; nvidia-smi topo -m; nproc; free -g; } > $OUT/gpus.txt 2>&1
head -2 $OUT/gpus.txt
if [ "${CHECK_S:-60}" -gt 0 ]; then
  APPS="${CHECK_APPS:-bfs sssp cc kcore}" COUNTS="${CHECK_COUNTS:-4}" FORMS="" \
    timeout ${CHECK_S:-60} tests/integration/multi_gpu.sh $root $bin rmat:scale=14 > $OUT/multi_gpu.txt 2>&1
  echo "multi_gpu.sh rc=$? $(grep -c ^PASS $OUT/multi_gpu.txt) pass, $(grep -cE '^(FAILED|WRONG)' $OUT/multi_gpu.txt) bad"
  grep -E '^(FAILED|WRONG)' $OUT/multi_gpu.txt | head -5
fi
i=0
IFS=';' read -ra stages <<< "${STAGES:-}"
for stage in "${stages[@]}"; do
  IFS='|' read -r apps schedules graphs budget <<< "$stage"
  [ -n "$apps" ] || continue
  i=$((i + 1)); name=${NAME:-s}$i
  left=$(( ${END_S:-575} - SECONDS )); [ "$budget" -gt "$left" ] && budget=$left
  [ "$budget" -gt 20 ] || { echo "$name: no time"; continue; }
  echo "== $name: $apps | $schedules | $graphs (${budget} s)"
  timeout $budget python3 tools/bench/irgl-bench run scaling --bin $bin --data $root/.device-carry/data \
    --out /tmp/$name --max-gpus 4 --runs 3 --budget $((budget - 15)) --work-dir /tmp/bench \
    --timeout ${TIMEOUT:-120} --check-max-edges 0 --compare-max-edges 5000000000 \
    --graphs $graphs --apps $apps --schedules $schedules > $OUT/$name.txt 2>&1
  echo "$name rc=$?"; grep -E "ms$|not run|cells in|failed|timed out|DIFF|WRONG" $OUT/$name.txt | tail -20
  grep -H "parts:\|^load\|^graph\|^supersteps\|^slowest" /tmp/$name/scaling-logs/*.log 2>/dev/null | sed 's|.*/||' > $OUT/$name-parts-lines.txt
  cp /tmp/$name/scaling.json $OUT/$name.json 2>/dev/null
done
du -sh /tmp/bench 2>/dev/null
