#!/usr/bin/env bash
# cc_afforest's in-kernel LB stand-in: merge-path against ALB by graph
# (the largest symmetrized degree decides which runs where).
set -u
start=$(date +%s)
cd "$(dirname "$0")"
mkdir -p /tmp/s64 /tmp/r64 && tar -xJf s64.tar.xz -C /tmp/s64
bin=/tmp/s64/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader
echo "graph build median_ms answer" > /tmp/r64/timing.txt
for g in rmat:scale=16 rmat:scale=18 rmat:scale=20 rmat:scale=22 $data/powerlaw/cnr-2000.txt.xz $data/powerlaw/uk-2007-05-100000.txt.xz $data/powerlaw/ego-twitter-undirected.txt.xz $data/powerlaw/musae_git_edges.csv.xz $data/road/usroads.mtx.xz; do
  timeout 60 $bin/irgl-graph stats --symmetrize $g 2>&1 | grep -E "^edges|out-degree" | head -2 | sed "s|^|$(basename $g): |"
  for b in mp alb mp alb; do
    out=$(timeout 60 $bin/cc-afforest-cuda-$b $g --symmetrize --runs 9 2>&1)
    m=$(echo "$out" | sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p')
    a=$(echo "$out" | grep -o "[0-9]* components" | head -1)
    echo "$(basename $g) $b ${m:-FAIL} ${a// /_}" >> /tmp/r64/timing.txt
  done
  echo "$out" | grep -i "schedule auto" | head -1
done
column -t /tmp/r64/timing.txt
echo "[$(( $(date +%s) - start )) s] done"
tar -C /tmp -cJf $OUT/r64.tar.xz r64
