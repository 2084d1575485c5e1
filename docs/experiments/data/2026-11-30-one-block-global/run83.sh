#!/usr/bin/env bash
# Chains in the examples (irglc's pushes-chain): sssp, sssp_real and cc
# (label propagation) by --chain, the matrix with chains, sanitizers.
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s83 $OUT/r83 && tar -xJf s83.tar.xz -C /tmp/s83
cp REVISION "$root/REVISION"
bin=/tmp/s83/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR
stamp() { echo "[$(( $(date +%s) - start )) s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for spec in "road/luxembourg_osm.mtx.xz 6397" "road/usroads.mtx.xz 58610" "road/moscow_roads.txt.xz 2094" "road/moscow_roads.gr.xz 209" "grid:1000x1000 1001" "rmat:scale=20 0" "powerlaw/cnr-2000.txt.xz 217849"; do
  set -- $spec; g=$1; s=$2; case $g in *:*) p=$g;; *) p=$data/$g;; esac
  for a in sssp cc; do
    case $a in sssp) o="--source $s"; case $g in *.gr.xz) ;; *) o="$o --weights=hash:100";; esac;; cc) o="--symmetrize";; esac
    line="$(basename $g) $a"
    for c in 1 2 4 8 1 4; do
      m=$(timeout 30 $bin/$a-cuda $p $o --runs 9 --chain $c 2>&1 | sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p')
      line="$line c$c=${m:-FAIL}"
    done
    echo "$line"
  done
done | tee $OUT/r83/chain.txt
stamp matrix
APPS="sssp cc sssp_real" JOBS=8 WORK_DIR=/tmp/w83 EXTRA_GRAPHS="grid:300x300: rmat:scale=14:" \
  timeout 100 bash $root/tools/gpu/check-examples.sh $bin $data cuda cuda@chain=16 > $OUT/r83/matrix.log 2>&1
echo "matrix exit $?"; tail -1 $OUT/r83/matrix.log; grep -vE "PASS|^app " $OUT/r83/matrix.log | head
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $bin/sssp-cuda $data/road/luxembourg_osm.mtx.xz --weights=hash:100 --runs 1 > $OUT/r83/sssp-$tool.log 2>&1
  echo "sssp lux $tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/r83/sssp-$tool.log | tail -1)"
done
stamp done
