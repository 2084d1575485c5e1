#!/bin/bash
# x2: the rest of RMAT 24 (cc, pr) and RMAT 25.
set -u
root=$(pwd)
[ -d .device-carry/bin ] || bash .device-carry/unpack.sh
bin=$root/.device-carry/bin
export IRGL_NO_PROGRESS=1 NCCL_NVLS_ENABLE=0
bench() {  # OUTNAME BUDGET ARGS...
  local name=$1 budget=$2; shift 2
  timeout $budget python3 tools/bench/irgl-bench run scaling --bin $bin --data $root/.device-carry/data \
    --out /tmp/$name --max-gpus 2 --runs 3 --budget $((budget - 50)) --work-dir /tmp/bench "$@" > $OUT/$name.txt 2>&1
  echo "$name rc=$?"; grep -E "ms$|not run|cells in|failed" $OUT/$name.txt | tail -30
  grep -H "parts:" /tmp/$name/scaling-logs/*.log 2>/dev/null | sed 's|.*/||' >> $OUT/parts-lines.txt
  tar czf $OUT/$name.tgz -C /tmp $name
}
bench scaling24 110 --graphs rmat:scale=24 --apps cc,pr --schedules 1gpu,oec-2,iec-2,cvc-2
bench scaling25 ${B25:-330} --graphs rmat:scale=25 --apps bfs,sssp,cc,pr --schedules 1gpu,iec-2,cvc-2
