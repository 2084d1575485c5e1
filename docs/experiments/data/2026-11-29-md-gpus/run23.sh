#!/usr/bin/env bash
# Two H200: irgl-md-gpus checked on one and two GPUs (every scheme and
# order against the host), memcheck, then scaling 1 -> 2 GPUs.
set -u
root=$PWD; c=$root/.device-carry
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $OUT/env.txt; cat $OUT/env.txt
mkdir -p $c/mdg && tar xJf $c/mdg.tar.xz -C $c/mdg
mkdir -p $OUT/logs
b=$c/mdg/irgl-md-gpus
for g in 1 2; do
  timeout 200 tools/bench/test-md-gpus.sh $b check $g > $OUT/logs/check-$g.log 2>&1; echo "check on $g GPU(s): exit $?"; tail -7 $OUT/logs/check-$g.log
done
cs=/usr/local/cuda/bin/compute-sanitizer
for s in queue chunks; do
  timeout 200 $cs --tool memcheck --error-exitcode 9 $b --atoms 5000 --gpus 2 --scheme $s --batch 5 --chunk-groups 7 --runs 1 --check > $OUT/logs/memcheck-$s.log 2>&1
  echo "memcheck $s 2 GPUs: exit $? $(grep 'ERROR SUMMARY' $OUT/logs/memcheck-$s.log | head -1)"
done
for atoms in 131072 262144 524288; do
  for cfg in "split sorted" "split random" "chunks sorted --chunk-groups 120" "chunks sorted --chunk-groups 1056" "queue sorted" "queue random"; do
    set -- $cfg; scheme=$1; order=$2; shift 2
    for g in 1 2; do
      name="$atoms-$scheme-$order${1:+-c$2}-$g"
      timeout 200 $b --atoms $atoms --gpus $g --scheme $scheme --order $order "$@" --runs 3 --json $OUT/logs/$name.json > $OUT/logs/$name.log 2>&1 || echo "FAILED $name: $(tail -2 $OUT/logs/$name.log)"
      echo "$atoms $scheme $order ${2:-} gpus=$g: $(grep '^time:' $OUT/logs/$name.log) | $(grep '^GPU' $OUT/logs/$name.log | tr '\n' ' ') | $(grep '^run 3' $OUT/logs/$name.log | grep -o '[0-9]* groups' | tr '\n' ' ')"
    done
  done
done | tee $OUT/scaling.txt
cd $OUT && tar cJf logs.tar.xz logs && rm -rf logs
