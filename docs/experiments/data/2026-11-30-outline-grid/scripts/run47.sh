#!/usr/bin/env bash
# Outlined iterations on a block per SM at least: tests, matrix of the
# iteration-loop apps, cc/pr against GAP on the road and web graphs.
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s47 && tar -xJf s47.tar.xz -C /tmp/s47
cp REVISION "$root/REVISION"
bin=/tmp/s47/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR /tmp/r47
stamp() { echo "[$(( $(date +%s) - start )) s] $*"; }
timeout 20 $bin/irgl_gpu_runtime_tests --gtest_filter='Outline*:AutoInKernel*' > /tmp/r47/tests.log 2>&1
echo "tests exit $?"; grep -E "^\[  (PASSED|FAILED)" /tmp/r47/tests.log
APPS="pr mis coloring" JOBS=8 WORK_DIR=/tmp/w47a timeout 45 bash $root/tools/gpu/check-examples.sh $bin $data cuda > /tmp/r47/matrix.log 2>&1
echo "matrix exit $?"; tail -1 /tmp/r47/matrix.log; grep -vE "PASS|^app " /tmp/r47/matrix.log | head
APPS="cc" JOBS=8 WORK_DIR=/tmp/w47b timeout 25 bash $root/tools/gpu/check-examples.sh $bin $data afforest-cuda > /tmp/r47/afforest.log 2>&1
echo "afforest exit $?"; tail -1 /tmp/r47/afforest.log; grep -vE "PASS|^app " /tmp/r47/afforest.log | head
for tool in racecheck synccheck; do
  timeout 25 compute-sanitizer --tool $tool --error-exitcode 9 $bin/pr-cuda $data/road/minnesota.mtx.xz --runs 1 > /tmp/r47/pr-$tool.log 2>&1
  echo "pr minnesota $tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/r47/pr-$tool.log)"
  timeout 25 compute-sanitizer --tool $tool --error-exitcode 9 $bin/cc-afforest-cuda $data/road/rome99.gr.xz --symmetrize --runs 1 > /tmp/r47/afforest-$tool.log 2>&1
  echo "cc_afforest rome99 $tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/r47/afforest-$tool.log)"
done
stamp peers
roads=road/minnesota.mtx.xz,road/rome99.gr.xz,road/monaco.wel.xz,road/luxembourg_osm.mtx.xz,road/usroads.mtx.xz,road/moscow_roads.txt.xz,road/moscow_roads.gr.xz
web=powerlaw/musae_git_edges.csv.xz,powerlaw/ego-twitter-undirected.txt.xz,powerlaw/cnr-2000.txt.xz,powerlaw/uk-2007-05-100000.txt.xz
left=$(( 200 - ($(date +%s) - start) ))
timeout $left python3 $root/tools/bench/irgl-bench run peers --apps cc,pr --schedules auto,afforest,gap \
  --bin $bin --gap /tmp/s47/gap --data $data --graphs $roads,$web --out /tmp/r47/peers \
  --work-dir /tmp/b47 --runs 7 --budget $(( left - 10 )) > /tmp/r47/peers.log 2>&1
echo "peers exit $?: $(tail -1 /tmp/r47/peers.log)"
stamp done
tar -C /tmp -cJf $OUT/r47.tar.xz r47
