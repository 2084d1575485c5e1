#!/usr/bin/env bash
# Session of 2026-11-30, call 4: auto's merge-path rule as committed (largest
# degree <= 8192, mean >= 7): picks against the previous auto, its matrix,
# sanitizers on web graphs (merge-path inside the persistent kernel), and
# pr on RMAT 25 against the gather bound.
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s30 && tar -xJf s30.tar.xz -C /tmp/s30
bin=/tmp/s30/bin
data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR /tmp/r30
pack() { tar -C /tmp -cJf $OUT/r30.tar.xz r30; }
nvidia-smi --query-gpu=name,driver_version --format=csv > /tmp/r30/gpu.txt
echo "== matrix of auto"
APPS="bfs sssp cc kcore" JOBS=12 WORK_DIR=/tmp/m30 timeout 110 \
  $root/tools/gpu/check-examples.sh $bin $data cuda > /tmp/r30/matrix-auto.log 2>&1; echo "matrix exit $?"; tail -1 /tmp/r30/matrix-auto.log
grep -v " PASS$" /tmp/r30/matrix-auto.log | grep -v "^app " | head -10
echo "== sanitizers"
for tool in memcheck racecheck synccheck; do
  for app in bfs sssp cc; do
    opts="--source 0"; [ $app = cc ] && opts=""; [ $app = sssp ] && opts="--source 0 --weights=hash:100"
    timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $bin/$app-cuda $data/powerlaw/ego-twitter-undirected.txt.xz $opts --runs 1 > /tmp/r30/$tool-$app.log 2>&1
    echo "$tool $app ego-twitter exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/r30/$tool-$app.log) $(grep '^schedule auto' /tmp/r30/$tool-$app.log)"
  done
done
pack
echo "== auto picks"
timeout 150 python3 $root/tools/bench/irgl-bench run paper002 --bin $bin --data $data --out /tmp/r30/picks \
  --work-dir /tmp/b30 --apps bfs,sssp,cc,kcore --schedules autoold,auto,merge-path --runs 7 \
  --budget 135 --graphs powerlaw/musae_git_edges.csv.xz,powerlaw/cnr-2000.txt.xz,powerlaw/uk-2007-05-100000.txt.xz,powerlaw/ego-twitter-undirected.txt.xz,rmat:scale=16 \
  > /tmp/r30/picks.log 2>&1; echo "picks exit $? at $(( $(date +%s) - start )) s"; tail -1 /tmp/r30/picks.log
pack
left=$((500 - $(date +%s) + start))
echo "== pr rmat25 ($left s)"
timeout $left python3 $root/tools/bench/irgl-bench run paper002 --bin $bin --data $data --out /tmp/r30/pr25 \
  --work-dir /tmp/b30 --apps pr --schedules auto --runs 3 --budget $((left - 20)) --timeout 200 --graphs rmat:scale=25 \
  > /tmp/r30/pr25.log 2>&1; echo "pr25 exit $? at $(( $(date +%s) - start )) s"; tail -3 /tmp/r30/pr25.log
pack
