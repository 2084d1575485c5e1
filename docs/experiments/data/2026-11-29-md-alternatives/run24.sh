#!/usr/bin/env bash
# One H200: the host-fed pool with preloaded rings (tests, memcheck,
# racecheck) and paper 004's micro-benchmarks with the preloaded column.
set -u
c=$PWD/.device-carry
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader > $OUT/env.txt; cat $OUT/env.txt
mkdir -p $c/qm && tar xJf $c/qm.tar.xz -C $c/qm
mkdir -p $OUT/logs
timeout 200 $c/qm/irgl_gpu_runtime_tests --gtest_filter='*HostFed*' > $OUT/logs/tests.log 2>&1; echo "host-fed tests: exit $?"; tail -3 $OUT/logs/tests.log
cs=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck synccheck; do
  timeout 200 $cs --tool $tool --error-exitcode 9 $c/qm/irgl_gpu_runtime_tests --gtest_filter='*Preloaded*:*HostFedPool.RejectsMisuse*' > $OUT/logs/$tool.log 2>&1
  echo "$tool: exit $? $(grep 'SUMMARY' $OUT/logs/$tool.log | head -1)"
done
timeout 300 $c/qm/irgl-queue-micro --reps 21 > $OUT/queue-micro.md 2> $OUT/logs/queue-micro.err; echo "queue-micro: exit $?"; sed -n '/Host-fed queue/,$p' $OUT/queue-micro.md
cd $OUT && tar cJf logs.tar.xz logs && rm -rf logs
