#!/usr/bin/env bash
# cc_afforest's hook reads the parent before it swaps: timing against s69
# (swap first), the afforest matrix, sanitizers, ncu per kernel on RMAT 22.
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s69 /tmp/s71 /tmp/r71; [ -d /tmp/s69/bin ] || tar -xJf s69.tar.xz -C /tmp/s69
tar -xJf s71.tar.xz -C /tmp/s71
cp /tmp/s71/bin/cc-afforest-cuda /tmp/s69/bin/cc-afforest-cuda-read
cp /tmp/s71/bin/cc-afforest-cpu /tmp/s69/bin/cc-afforest-read-cpu
bin=/tmp/s69/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR
cp /tmp/s71/bin/cc-afforest-cpu $bin/cc-afforest-cpu
APPS="cc" JOBS=8 WORK_DIR=/tmp/w71 EXTRA_GRAPHS="rmat:scale=14: rmat:scale=18: grid:30x30:" timeout 90 bash $root/tools/gpu/check-examples.sh $bin $data afforest-cuda-read afforest-cuda-read@outline=off > /tmp/r71/afforest.log 2>&1
echo "afforest exit $?"; tail -1 /tmp/r71/afforest.log; grep -vE "PASS|^app " /tmp/r71/afforest.log | head
for tool in memcheck racecheck synccheck; do
  timeout 40 compute-sanitizer --tool $tool --error-exitcode 9 $bin/cc-afforest-cuda-read $data/powerlaw/musae_git_edges.csv.xz --symmetrize --runs 1 > /tmp/r71/$tool.log 2>&1
  echo "musae $tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/r71/$tool.log | tail -1)"
done
for g in rmat:scale=20 rmat:scale=22 $data/powerlaw/cnr-2000.txt.xz $data/powerlaw/uk-2007-05-100000.txt.xz $data/powerlaw/ego-twitter-undirected.txt.xz $data/powerlaw/musae_git_edges.csv.xz $data/road/usroads.mtx.xz $data/road/moscow_roads.gr.xz $data/road/luxembourg_osm.mtx.xz $data/road/minnesota.mtx.xz; do
  line="$(basename $g)"
  for b in cc-afforest-cuda cc-afforest-cuda-read cc-afforest-cuda cc-afforest-cuda-read; do
    m=$(timeout 60 $bin/$b $g --symmetrize --runs 9 2>&1 | sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p')
    line="$line ${b#cc-afforest-cuda}=${m:-FAIL}"
  done
  echo "$line"
done | sed 's/ =/ swap=/g; s/-read=/read=/g' | tee /tmp/r71/timing.txt
for b in cc-afforest-cuda cc-afforest-cuda-read cc-cuda; do
  out=$(timeout 150 $bin/$b rmat:scale=24 --symmetrize --runs 5 2>&1)
  echo "rmat24 $b $(echo "$out" | sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p') $(echo "$out" | grep -o '[0-9]* components')"
done | tee -a /tmp/r71/timing.txt
timeout 120 ncu --metrics gpu__time_duration.sum --csv $bin/cc-afforest-cuda-read rmat:scale=22 --symmetrize --runs 1 --outline off > /tmp/r71/ncu-off.csv 2>&1
grep -E '^"' /tmp/r71/ncu-off.csv | tail -n +2 | awk -F'","' '{k=$5; n=split(k,a,"irglc_cc::"); split(a[n],b,"[,>]"); print b[1]" "$NF}' | tr -d '"' | tee /tmp/r71/ncu-off.txt
echo "[$(( $(date +%s) - start )) s] done"
tar -C /tmp -cJf $OUT/r71.tar.xz r71
