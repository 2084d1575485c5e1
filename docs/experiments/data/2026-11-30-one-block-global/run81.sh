#!/usr/bin/env bash
# Staged pushes (cooperative conversion, the default) against one global
# atomic per push (irglc --no-coop) for sssp and bfs, fb02822's runtime.
set -u
cd "$(dirname "$0")"
mkdir -p /tmp/s81 /tmp/r81; [ -d /tmp/s81/bin ] || tar -xJf s81.tar.xz -C /tmp/s81
bin=/tmp/s81/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for spec in "road/luxembourg_osm.mtx.xz 6397" "road/usroads.mtx.xz 58610" "road/moscow_roads.txt.xz 2094" "road/moscow_roads.gr.xz 209" "grid:1000x1000 1001" "rmat:scale=20 0" "powerlaw/cnr-2000.txt.xz 217849"; do
  set -- $spec; g=$1; s=$2; case $g in *:*) p=$g;; *) p=$data/$g;; esac
  for a in sssp bfs; do
    o="--source $s"; [ $a = sssp ] && case $g in *.gr.xz) ;; *) o="$o --weights=hash:100";; esac
    line="$(basename $g) $a"
    for b in cuda cuda-nocoop cuda cuda-nocoop; do
      m=$(timeout 30 $bin/$a-$b $p $o --runs 9 2>&1 | sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p')
      line="$line $b=${m:-FAIL}"
    done
    echo "$line"
  done
done | tee /tmp/r81/nocoop.txt
for a in sssp bfs; do
  APPS="$a" JOBS=8 WORK_DIR=/tmp/w81$a EXTRA_GRAPHS="grid:300x300:" timeout 100 bash $(cd .. && pwd)/tools/gpu/check-examples.sh $bin $data cuda-nocoop > /tmp/r81/matrix-$a.log 2>&1
  echo "$a nocoop matrix exit $?: $(tail -1 /tmp/r81/matrix-$a.log)"
done
tar -C /tmp -cJf $OUT/r81.tar.xz r81
