#!/bin/bash
# One GPU: what the parts' forced forms (sparse queues, no outlining) cost,
# against the single-GPU default and the 1-GPU parts build.
set -u
root=$(pwd)
bash .device-carry/unpack.sh
bin=$root/.device-carry/bin
export IRGL_NO_PROGRESS=1 NCCL_NVLS_ENABLE=0 IRGL_CACHE_DIR=/tmp/cache
mkdir -p /tmp/cache
nvidia-smi --query-gpu=name --format=csv,noheader
med() { grep -oE "^run [0-9]+: [0-9.]+ ms" | awk '{print $3}' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for scale in 22 24; do
  g=rmat:scale=$scale
  src=$( [ $scale = 24 ] && echo 4991065 || echo 2494553 )
  for app in bfs sssp cc pr; do
    case $app in bfs) o="--source $src";; sssp) o="--source $src --weights=hash:100";; cc) o="--symmetrize";; *) o="";; esac
    a=$(timeout 60 $bin/$app-cuda $g $o --warmup 1 --runs 5 2>&1 | med)
    b=$(timeout 60 $bin/$app-cuda $g $o --frontier sparse --outline off --warmup 1 --runs 5 2>&1 | med)
    c=$(timeout 60 $bin/$app-cuda $g $o --outline off --warmup 1 --runs 5 2>&1 | med)
    d=$(timeout 60 $root/tools/irgl-launch -n 1 $bin/$app-cuda-parts $g $o --warmup 1 --runs 5 2>&1 | med)
    echo "rmat$scale $app default $a | sparse+no-outline $b | no-outline $c | parts-1 $d"
  done
done
