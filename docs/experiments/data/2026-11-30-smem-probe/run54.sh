#!/usr/bin/env bash
# A small graph's outlined loop on one block in shared memory: the outline
# tests, then racecheck, synccheck and memcheck on the shared-memory test.
set -u
start=$(date +%s)
cd "$(dirname "$0")"
mkdir -p /tmp/s54 /tmp/r54 && tar -xJf s54.tar.xz -C /tmp/s54
t=/tmp/s54/bin/irgl_gpu_runtime_tests
timeout 60 $t --gtest_filter='Outline*:AutoInKernel*' > /tmp/r54/tests.log 2>&1
echo "tests exit $?"; grep -E "^\[  (PASSED|FAILED)|FAILED  \]" /tmp/r54/tests.log | head; grep -B2 -A8 "Failure" /tmp/r54/tests.log | head -40
for tool in racecheck synccheck memcheck; do
  timeout 50 compute-sanitizer --tool $tool --error-exitcode 9 $t --gtest_filter='Outline.SmallGraphLoopRunsInSharedMemory' > /tmp/r54/$tool.log 2>&1
  echo "$tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/r54/$tool.log | tail -1)"
done
echo "[$(( $(date +%s) - start )) s] done"
tar -C /tmp -cJf $OUT/r54.tar.xz r54
