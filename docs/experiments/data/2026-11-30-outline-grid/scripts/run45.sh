#!/usr/bin/env bash
# Thread among the in-kernel picks: tests, the iteration-loop apps' matrix,
# sanitizers, and cc/pr against GAP (peers) on the road and web graphs.
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s45 && tar -xJf s45.tar.xz -C /tmp/s45
cp REVISION "$root/REVISION"
bin=/tmp/s45/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR /tmp/r45
stamp() { echo "[$(( $(date +%s) - start )) s] $*"; }
stamp tests
timeout 100 $bin/irgl_gpu_runtime_tests > /tmp/r45/tests.log 2>&1
echo "tests exit $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED)" /tmp/r45/tests.log | head
stamp matrix
APPS="pr mis coloring bfs sssp" JOBS=8 WORK_DIR=/tmp/w45a EXTRA_GRAPHS="rmat:scale=18:" \
  timeout 110 bash $root/tools/gpu/check-examples.sh $bin $data cuda > /tmp/r45/matrix.log 2>&1
echo "matrix exit $?"; tail -1 /tmp/r45/matrix.log; grep -vE "PASS|^app " /tmp/r45/matrix.log | head
APPS="cc" JOBS=8 WORK_DIR=/tmp/w45b EXTRA_GRAPHS="rmat:scale=18:" \
  timeout 50 bash $root/tools/gpu/check-examples.sh $bin $data afforest-cuda afforest-cuda@outline=off > /tmp/r45/afforest.log 2>&1
echo "afforest exit $?"; tail -1 /tmp/r45/afforest.log; grep -vE "PASS|^app " /tmp/r45/afforest.log | head
stamp sanitizers
m=$data/road/minnesota.mtx.xz
for tool in racecheck synccheck memcheck; do
  timeout 30 compute-sanitizer --tool $tool --error-exitcode 9 $bin/pr-cuda $m --runs 1 > /tmp/r45/pr-$tool.log 2>&1
  echo "pr minnesota $tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/r45/pr-$tool.log)"
  timeout 30 compute-sanitizer --tool $tool --error-exitcode 9 $bin/cc-afforest-cuda $m --symmetrize --runs 1 > /tmp/r45/afforest-$tool.log 2>&1
  echo "cc_afforest minnesota $tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/r45/afforest-$tool.log)"
done | tee /tmp/r45/sanitizers.txt
stamp peers
roads=road/minnesota.mtx.xz,road/rome99.gr.xz,road/monaco.wel.xz,road/luxembourg_osm.mtx.xz,road/usroads.mtx.xz,road/moscow_roads.txt.xz,road/moscow_roads.gr.xz
web=powerlaw/musae_git_edges.csv.xz,powerlaw/ego-twitter-undirected.txt.xz,powerlaw/cnr-2000.txt.xz,powerlaw/uk-2007-05-100000.txt.xz
left=$(( 390 - ($(date +%s) - start) ))
timeout $left python3 $root/tools/bench/irgl-bench run peers --apps cc,pr --schedules auto,afforest,gap \
  --bin $bin --gap /tmp/s45/gap --data $data --graphs $roads,$web --out /tmp/r45/peers \
  --work-dir /tmp/b45 --runs 7 --budget $(( left - 15 )) > /tmp/r45/peers.log 2>&1
echo "peers exit $?: $(tail -1 /tmp/r45/peers.log)"
t() { timeout 20 "$@" --runs 7 --warmup 1 2>&1 | grep '^time:' | sed 's/time: median \([0-9.]*\) ms.*/\1/'; }
for g in road/minnesota.mtx.xz road/usroads.mtx.xz road/moscow_roads.txt.xz powerlaw/cnr-2000.txt.xz; do
  echo "cc_afforest $(basename $g) default $(t $bin/cc-afforest-cuda $data/$g --symmetrize) off $(t $bin/cc-afforest-cuda $data/$g --symmetrize --outline off)"
done | tee /tmp/r45/afforest-off.txt
stamp done
tar -C /tmp -cJf $OUT/r45.tar.xz r45
