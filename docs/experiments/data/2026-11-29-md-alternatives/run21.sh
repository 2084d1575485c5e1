#!/usr/bin/env bash
# One H200: md_forces with the decomposition sort and chunks against the
# CPU build under every pool scheme, memcheck, md-bench (paper 004's MD
# alternatives), then the query engine's racecheck on one small test.
set -u
root=$PWD; c=$root/.device-carry
export IRGL_NO_PROGRESS=1
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader > $OUT/env.txt; cat $OUT/env.txt
mkdir -p $c/bin $c/md && tar xJf $c/serve.tar.xz -C $c/bin && tar xJf $c/md.tar.xz -C $c/md
mkdir -p $OUT/logs
close=tests/lit/irglc/examples/Inputs/close_results.py
fail=0
for count in 2500 20000; do
  timeout 120 $c/md/md-forces-cpu --count $count > /tmp/md-cpu.txt 2>&1 || fail=1
  for scheme in work-stealing static blocking-queue nonblocking-queue; do
    for order in "" "--sort true" "--sort true --chunk 7000"; do
      timeout 120 $c/md/md-forces-cuda --count $count --task-pool $scheme --runs 2 $order > /tmp/md-gpu.txt 2>&1 || { fail=1; echo "FAILED: $count $scheme $order"; tail -3 /tmp/md-gpu.txt; }
      python3 $close /tmp/md-gpu.txt /tmp/md-cpu.txt > /dev/null || { fail=1; echo "DIFF: $count $scheme $order"; }
    done
  done
done
echo "md_forces 2 sizes x 4 schemes x 3 orders against the CPU: $([ $fail = 0 ] && echo PASS || echo FAIL)"
cs=/usr/local/cuda/bin/compute-sanitizer
for scheme in nonblocking-queue work-stealing static; do
  timeout 200 $cs --tool memcheck --error-exitcode 9 $c/md/md-forces-cuda --count 3000 --sort true --chunk 1000 --task-pool $scheme > $OUT/logs/md-memcheck-$scheme.log 2>&1
  echo "memcheck $scheme: exit $? $(grep 'ERROR SUMMARY' $OUT/logs/md-memcheck-$scheme.log)"
done
timeout 200 $cs --tool racecheck --error-exitcode 9 $c/md/md-forces-cuda --count 3000 --sort true > $OUT/logs/md-racecheck.log 2>&1
echo "racecheck: exit $? $(grep 'ERROR SUMMARY' $OUT/logs/md-racecheck.log)"
timeout 420 python3 tools/bench/md-bench.py $c/md/md-forces-cuda-128 $OUT/logs/md-bench-128.json ${COUNTS:+--counts $COUNTS} > $OUT/md-bench.md 2> $OUT/logs/md-bench.err
echo "md-bench: exit $?"; cat $OUT/md-bench.md; tail -3 $OUT/logs/md-bench.err
timeout 150 $cs --tool racecheck --error-exitcode 9 $c/bin/main/irgl_gpu_query_engine_tests --gtest_filter='*OneSlot*' > $OUT/logs/engine-racecheck.log 2>&1
echo "engine racecheck: exit $? $(grep 'ERROR SUMMARY' $OUT/logs/engine-racecheck.log)"
cd $OUT && tar cJf logs.tar.xz logs && rm -rf logs
