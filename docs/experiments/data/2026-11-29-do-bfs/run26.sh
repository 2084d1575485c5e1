#!/usr/bin/env bash
# One H200: settling bodies (runtime tests, sanitizers) and a pull bfs
# that stops at its first parent (bfs_do.irgl with kSettles added by hand)
# under auto, thread and warp, against bfs and bfs_do without it.
set -u
c=$PWD/.device-carry
export IRGL_NO_PROGRESS=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/env.txt; cat $OUT/env.txt
mkdir -p $c/s26 && tar xJf $c/s26.tar.xz -C $c/s26
mkdir -p $OUT/logs
b=$c/s26
timeout 300 $b/irgl_gpu_runtime_tests > $OUT/logs/runtime-tests.log 2>&1; echo "runtime tests: exit $?"; grep -E "PASSED|FAILED|SKIPPED \]" $OUT/logs/runtime-tests.log | head -8
cs=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck synccheck; do
  timeout 200 $cs --tool $tool --error-exitcode 9 $b/irgl_gpu_runtime_tests --gtest_filter='Settling*' > $OUT/logs/settle-$tool.log 2>&1
  echo "settling $tool: exit $? $(grep 'SUMMARY' $OUT/logs/settle-$tool.log | head -1)"
done
xz -dc $c/data/road/moscow_roads.gr.xz > /tmp/moscow.gr
go="--symmetrize --cache-dir /tmp/gc --quiet"
for g in rmat:scale=22 rmat:scale=24 /tmp/moscow.gr; do
  name=$(basename $g | tr ':=' '__')
  for p in bfs bfs_do bfs_do_auto bfs_do_thread bfs_do_warp; do
    timeout 200 $b/$p-cuda $g $go --source random --random-seed 3 --runs 7 --warmup 2 > $OUT/logs/$name-$p.log 2>&1 || echo "FAILED $name $p: $(tail -2 $OUT/logs/$name-$p.log)"
    echo "$name $p: $(grep '^time:' $OUT/logs/$name-$p.log) | $(grep '^schedule' $OUT/logs/$name-$p.log)"
  done
  timeout 200 $b/bfs-cuda $g $go --source 7 --output /tmp/ref.txt --force > /dev/null 2>&1
  for p in bfs_do_auto bfs_do_thread bfs_do_warp; do
    timeout 200 $b/$p-cuda $g $go --source 7 --output /tmp/$p.txt --force > /dev/null 2>&1
    cmp -s <(grep -v '^#' /tmp/ref.txt) <(grep -v '^#' /tmp/$p.txt) && echo "$name $p: levels equal (source 7)" || echo "$name $p: LEVELS DIFFER"
  done
done | tee $OUT/summary.txt
cd $OUT && tar cJf logs.tar.xz logs && rm -rf logs
