#!/bin/bash
# x4: parts that map a binary CSR (the cache entry of a one-GPU run, a .csr
# input): multi_gpu.sh without the forms, then irgl-bench scaling cells.
#   CHECK_S=0 skips multi_gpu.sh; GRAPHS, APPS, SCHEDULES pick the cells.
set -u
root=$(pwd)
bash .device-carry/unpack.sh
bin=$root/.device-carry/bin
export IRGL_NO_PROGRESS=1 NCCL_NVLS_ENABLE=0
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; nvidia-smi topo -m; nproc; free -g; df -h /tmp; } > $OUT/gpus.txt 2>&1
head -2 $OUT/gpus.txt
if [ "${CHECK_S:-100}" -gt 0 ]; then
  APPS="${CHECK_APPS:-bfs sssp cc pr kcore}" COUNTS="${CHECK_COUNTS:-4}" FORMS="" \
    timeout ${CHECK_S:-100} tests/integration/multi_gpu.sh $root $bin rmat:scale=14 > $OUT/multi_gpu.txt 2>&1
  echo "multi_gpu.sh rc=$? $(grep -c ^PASS $OUT/multi_gpu.txt) pass, $(grep -cE '^(FAILED|WRONG)' $OUT/multi_gpu.txt) bad"
  grep -E '^(FAILED|WRONG)' $OUT/multi_gpu.txt | head -5
fi
budget=$(( ${END_S:-570} - SECONDS ))
echo "bench budget ${budget} s"
name=${NAME:-scaling}
timeout $budget python3 tools/bench/irgl-bench run scaling --bin $bin --data $root/.device-carry/data \
  --out /tmp/$name --max-gpus 4 --runs 3 --budget $((budget - ${TAIL_S:-70})) --work-dir /tmp/bench \
  --timeout ${TIMEOUT:-60} --check-max-edges 0 --compare-max-edges 5000000000 \
  --graphs ${GRAPHS:-rmat:scale=27} --apps ${APPS:-bfs,sssp} \
  --schedules ${SCHEDULES:-1gpu,cvc-2,cvc-4,iec-4,alb-cvc-4,twc-cvc-4} > $OUT/$name.txt 2>&1
echo "$name rc=$?"; grep -E "ms$|not run|cells in|failed|timed out|DIFF|WRONG" $OUT/$name.txt | tail -40
grep -H "parts:\|^load\|^graph" /tmp/$name/scaling-logs/*.log 2>/dev/null | sed 's|.*/||' > $OUT/parts-lines.txt
tar czf $OUT/$name.tgz -C /tmp $name
ls /tmp/bench/irgl-cache 2>/dev/null | head; du -sh /tmp/bench 2>/dev/null
