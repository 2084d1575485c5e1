#!/usr/bin/env bash
# Two H200: the query engine on two GPUs (tests, end-to-end, capacity with
# --gpus 1 and 2), then md-bench's rows with chunks of a wave.
set -u
root=$PWD; c=$root/.device-carry
export IRGL_NO_PROGRESS=1 NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $OUT/env.txt; cat $OUT/env.txt
nvidia-smi topo -m >> $OUT/env.txt 2>&1
mkdir -p $c/bin $c/md && tar xJf $c/serve.tar.xz -C $c/bin && tar xJf $c/md.tar.xz -C $c/md
mkdir -p $OUT/logs
step() {  # NAME SECONDS COMMAND...
  local name=$1 s=$2; shift 2; local t=$(date +%s)
  timeout $s "$@" > $OUT/logs/$name.log 2>&1; echo "$name: exit $? in $(( $(date +%s) - t )) s"; tail -${TAIL:-4} $OUT/logs/$name.log
}
b=$c/bin/main
TAIL=4 step engine-tests 150 $b/irgl_gpu_query_engine_tests
for t in answers socket gpus; do TAIL=2 step serve-$t 90 tools/serve/test-serve.sh $b/irgl-serve $t; done
TAIL=2 step memcheck-two 150 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 $b/irgl_gpu_query_engine_tests --gtest_filter='*TwoGpus*'
xz -dc $c/data/road/moscow_roads.gr.xz > /tmp/moscow.gr
go="--weights hash:100 --cache-dir /tmp/gc"
for g in rmat22=rmat:22 moscow=/tmp/moscow.gr; do
  name=${g%%=*}; spec=${g#*=}
  for kind in bfs sssp khop; do
    q=/tmp/q-$name-$kind.txt
    timeout 120 $b/irgl-serve $spec $go --make-queries 2000 --kind $kind --hops 2 --targets 2 --seed 7 > $q
    for n in 1 2; do
      timeout 120 $b/irgl-serve $spec $go --queries $q --mode resident --rate 0 --gpus $n --stats $OUT/logs/gpus-$name-$kind-$n.json > /dev/null 2> $OUT/logs/gpus-$name-$kind-$n.err
      echo "$name $kind gpus=$n exit $?: $(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['runs'][0]; print(f\"{r['queries_per_second']:.0f} q/s median {r['latency_us']['median']/1000:.3f} ms; \" + ', '.join(f\"GPU {x['gpu']}: {x['answered']} answered, busy {x['busy_seconds']:.3f} s\" for x in r['gpus']) + f\"; {r['seconds']:.3f} s\")" $OUT/logs/gpus-$name-$kind-$n.json 2>&1)"
    done
  done
done | tee $OUT/gpus.txt
COUNTS=${COUNTS:-131072,262144,524288}
timeout 300 python3 tools/bench/md-bench.py $c/md/md-forces-cuda-128 $OUT/logs/md-bench-128.json --counts $COUNTS > $OUT/md-bench.md 2> $OUT/logs/md-bench.err
echo "md-bench: exit $?"; cat $OUT/md-bench.md; tail -3 $OUT/logs/md-bench.err
cd $OUT && tar cJf logs.tar.xz logs && rm -rf logs
