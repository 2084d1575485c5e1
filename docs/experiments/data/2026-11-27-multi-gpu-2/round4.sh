#!/bin/bash
# x2: the exchange with counts and a first chunk in one group: multi_gpu.sh,
# then RMAT 24 bfs/sssp/cc against the previous exchange (bin-old), same machine.
set -u
root=$(pwd)
cd .device-carry && tar xJf bin.tar.xz && mkdir -p old && tar xJf bin-old.tar.xz -C old && cd $root
bin=$root/.device-carry/bin
export IRGL_NO_PROGRESS=1 NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
timeout 70 tests/integration/multi_gpu.sh $root $bin rmat:scale=14 > $OUT/multi_gpu.txt 2>&1
echo "multi_gpu.sh rc=$? $(grep -c ^PASS $OUT/multi_gpu.txt) pass, $(grep -cE '^(FAILED|WRONG)' $OUT/multi_gpu.txt) bad"
bench() {  # NAME BIN SCHEDULES BUDGET
  timeout $4 python3 tools/bench/irgl-bench run scaling --bin $2 --data $root/.device-carry/data \
    --out /tmp/$1 --max-gpus 2 --runs 3 --budget $(($4 - 25)) --work-dir /tmp/bench \
    --graphs rmat:scale=24 --apps bfs,sssp,cc --schedules $3 > $OUT/$1.txt 2>&1
  echo "$1 rc=$?"; grep -E "ms$|not run|cells in" $OUT/$1.txt
  grep -H "parts:" /tmp/$1/scaling-logs/*.log 2>/dev/null | sed 's|.*/||' >> $OUT/parts-lines.txt
}
bench new $bin 1gpu,iec-2,cvc-2 95
bench old $root/.device-carry/old/bin iec-2 45
