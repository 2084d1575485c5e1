#!/usr/bin/env bash
# One-block loops only without hubs (largest degree <= 32) and iterations
# of graphs <= 1,024 vertices; cc_afforest's neighbor rounds read one edge
# per vertex. Tests, matrix (shared auto and off), afforest, sanitizers,
# timings; afforest against the s65 build (edge loop per round).
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s69 /tmp/r69 && tar -xJf s69.tar.xz -C /tmp/s69
cp REVISION "$root/REVISION"
bin=/tmp/s69/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR
stamp() { echo "[$(( $(date +%s) - start )) s] $*"; }
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader
timeout 150 $bin/irgl_gpu_runtime_tests > /tmp/r69/tests.log 2>&1
echo "tests exit $?"; grep -E "^\[  (PASSED|FAILED)|FAILED  \]" /tmp/r69/tests.log | head
stamp matrix
APPS="pr mis coloring bfs sssp cc kcore scc bc" JOBS=8 WORK_DIR=/tmp/w69 EXTRA_GRAPHS="rmat:scale=14: grid:30x30: rmat:scale=9:" \
  timeout 200 bash $root/tools/gpu/check-examples.sh $bin $data cuda cuda@outline-shared=off > /tmp/r69/matrix.log 2>&1
echo "matrix exit $?"; tail -1 /tmp/r69/matrix.log; grep -vE "PASS|^app " /tmp/r69/matrix.log | head
APPS="cc" JOBS=8 WORK_DIR=/tmp/w69b EXTRA_GRAPHS="rmat:scale=14: grid:30x30:" timeout 60 bash $root/tools/gpu/check-examples.sh $bin $data afforest-cuda afforest-cuda@outline=off > /tmp/r69/afforest.log 2>&1
echo "afforest exit $?"; tail -1 /tmp/r69/afforest.log; grep -vE "PASS|^app " /tmp/r69/afforest.log | head
stamp sanitizers
for run in "pr-cuda tiny/dolphins.mtx.xz" "mis-cuda tiny/polbooks.mtx.xz --symmetrize" "coloring-cuda tiny/dolphins.mtx.xz --symmetrize" "cc-afforest-cuda road/rome99.gr.xz --symmetrize"; do
  set -- $run; b=$1; g=$2; shift 2
  for tool in memcheck synccheck; do
    timeout 40 compute-sanitizer --tool $tool --error-exitcode 9 $bin/$b $data/$g "$@" --runs 1 > /tmp/r69/$b-$tool.log 2>&1
    echo "$b $(basename $g) $tool exit $? $(grep -E 'ERROR SUMMARY' /tmp/r69/$b-$tool.log | tail -1)"
  done
done
timeout 40 compute-sanitizer --tool racecheck --error-exitcode 9 $bin/pr-cuda $data/tiny/dolphins.mtx.xz --runs 1 > /tmp/r69/pr-racecheck.log 2>&1
echo "pr dolphins racecheck exit $? $(grep -E 'RACECHECK SUMMARY' /tmp/r69/pr-racecheck.log)"
stamp timing
for g in grid:32x32 $data/tiny/dolphins.mtx.xz $data/tiny/karate.mtx.xz $data/road/monaco.wel.xz $data/road/minnesota.mtx.xz; do
  for a in pr mis coloring; do
    o=""; [ $a != pr ] && o="--symmetrize"
    line="$(basename $g) $a"
    for s in auto off auto off; do
      m=$(timeout 30 $bin/$a-cuda $g $o --runs 15 --outline-shared $s 2>&1 | sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p')
      line="$line $s=${m:-FAIL}"
    done
    echo "$line"
  done
done | tee /tmp/r69/iterations.txt
for g in rmat:scale=8 rmat:scale=9 $data/tiny/netscience.mtx.xz $data/road/minnesota.mtx.xz; do
  for a in bfs sssp cc; do
    o="--source 0"; [ $a = sssp ] && o="--source 0 --weights=hash:100"; [ $a = cc ] && o="--symmetrize"
    line="$(basename $g) $a"
    for s in auto off auto off; do
      m=$(timeout 30 $bin/$a-cuda $g $o --runs 15 --outline-shared $s 2>&1 | sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p')
      line="$line $s=${m:-FAIL}"
    done
    echo "$line"
  done
done | tee /tmp/r69/pipes.txt
stamp afforest
for g in rmat:scale=20 rmat:scale=22 $data/powerlaw/cnr-2000.txt.xz $data/powerlaw/uk-2007-05-100000.txt.xz $data/powerlaw/ego-twitter-undirected.txt.xz $data/powerlaw/musae_git_edges.csv.xz $data/road/usroads.mtx.xz $data/road/moscow_roads.gr.xz $data/road/minnesota.mtx.xz; do
  line="$(basename $g)"
  for b in cc-afforest-cuda-s65 cc-afforest-cuda cc-afforest-cuda-s65 cc-afforest-cuda cc-cuda; do
    m=$(timeout 60 $bin/$b $g --symmetrize --runs 9 2>&1 | sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p')
    line="$line ${b#cc-}=${m:-FAIL}"
  done
  echo "$line"
done | tee /tmp/r69/afforest-timing.txt
for b in cc-afforest-cuda-s65 cc-afforest-cuda cc-cuda; do
  out=$(timeout 150 $bin/$b rmat:scale=24 --symmetrize --runs 5 2>&1)
  echo "rmat24 $b $(echo "$out" | sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p') $(echo "$out" | grep -o '[0-9]* components')"
done | tee -a /tmp/r69/afforest-timing.txt
stamp done
tar -C /tmp -cJf $OUT/r69.tar.xz r69
