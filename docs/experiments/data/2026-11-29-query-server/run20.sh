#!/usr/bin/env bash
# One H200: main's query engine (ids fix, test refactor, shutdown) and
# wip/query-pieces: tests, sanitizers, then resident capacity and lone
# latency of both builds on the same queries.
set -u
root=$PWD; c=$root/.device-carry
export IRGL_NO_PROGRESS=1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $OUT/env.txt; cat $OUT/env.txt
mkdir -p $c/bin && tar xJf $c/serve.tar.xz -C $c/bin
step() {  # NAME SECONDS COMMAND...
  local name=$1 s=$2; shift 2; local t=$(date +%s)
  timeout $s "$@" > $OUT/logs/$name.log 2>&1; echo "$name: exit $? in $(( $(date +%s) - t )) s"; tail -${TAIL:-4} $OUT/logs/$name.log
}
mkdir -p $OUT/logs
cs=/usr/local/cuda/bin/compute-sanitizer
for b in main pieces; do
  TAIL=3 step $b-engine-tests 150 $c/bin/$b/irgl_gpu_query_engine_tests
  for t in answers socket; do TAIL=2 step $b-serve-$t 90 tools/serve/test-serve.sh $c/bin/$b/irgl-serve $t; done
  for tool in memcheck synccheck racecheck; do
    TAIL=2 step $b-sanitize-$tool 150 $cs --tool $tool --error-exitcode 9 $c/bin/$b/irgl_gpu_query_engine_tests --gtest_filter='*Grid*:*OneSlot*:*Misuse*:*Hub*:*Repeated*'
  done
done
xz -dc $c/data/road/moscow_roads.gr.xz > /tmp/moscow.gr
go="--weights hash:100 --cache-dir /tmp/gc"
for g in rmat22=rmat:22 rmat24=rmat:24 moscow=/tmp/moscow.gr; do
  name=${g%%=*}; spec=${g#*=}
  for kind in bfs sssp; do
    q=/tmp/q-$name-$kind.txt
    timeout 120 $c/bin/main/irgl-serve $spec $go --make-queries 600 --kind $kind --targets 2 --seed 7 > $q
    head -30 $q > $q.lone
    for b in main pieces; do
      for run in cap lone; do
        file=$q; rate=0; [ $run = lone ] && { file=$q.lone; rate=10; }
        timeout 120 $c/bin/$b/irgl-serve $spec $go --queries $file --mode resident --rate $rate --stats $OUT/logs/cmp-$name-$kind-$b-$run.json > /dev/null 2> $OUT/logs/cmp-$name-$kind-$b-$run.err
        echo "$name $kind $b $run exit $?: $(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['runs'][0]; print(f\"{r['queries_per_second']:.1f} q/s median {r['latency_us']['median']/1000:.3f} ms p99 {r['latency_us']['p99']/1000:.3f} ms\")" $OUT/logs/cmp-$name-$kind-$b-$run.json 2>&1)"
      done
    done
  done
done | tee $OUT/compare.txt
cd $OUT && tar cJf logs.tar.xz logs && rm -rf logs
