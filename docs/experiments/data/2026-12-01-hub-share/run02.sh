#!/bin/bash
# Session 2026-12-01 (10th), call 2, nvidia-h200: the hub-share rule
# (merge-path for the rounds of graphs whose top 1% hold at most 0.375 of
# the edges) and merge-path's small rounds handed to TWC at a line
# (--auto-merge-path-items; call 1 handed them to a warp per vertex), on
# the 4 web graphs x bfs, sssp, cc, kcore. Configs: the committed auto
# (old), the new auto with the line at 1 item and 2, 8 (default), 32, 128
# per SM (132 SMs), and the TWC, warp, merge-path and ALB builds. Three
# processes of each, alternating, each the median of 9 runs.
set -u
cd "$(dirname "$0")/.."
W=/tmp/w; mkdir -p $W && tar -C $W -xJf .device-carry/r2.tar.xz; B=$W/bin; O=$W/old; D=.device-carry/data
R=/tmp/r; mkdir -p $R
export IRGL_CACHE_DIR=/tmp/cache; mkdir -p $IRGL_CACHE_DIR
nvidia-smi -L > $R/nvidia-smi.txt
med() { timeout 60 "$@" --warmup 2 --runs 9 2>&1 | grep -E '^run ' | awk '{print $3}' | sort -n | sed -n 5p; }
f=$R/web.txt
for spec in "powerlaw/musae_git_edges.csv.xz 27803" "powerlaw/ego-twitter-undirected.txt.xz 109" \
            "powerlaw/cnr-2000.txt.xz 217849" "powerlaw/uk-2007-05-100000.txt.xz 77309"; do
  set -- $spec; file=$1 src=$2; g=$D/$file; name=$(basename $file .xz)
  for app in bfs sssp cc kcore; do
    case $app in bfs) o="--source $src";; sssp) o="--source $src --weights=hash:100";; cc) o="--symmetrize";; kcore) o="--simple --k 3";; esac
    timeout 60 $B/$app-cuda $g $o --runs 1 --output /tmp/a.out --force > $R/summary-$name-$app.txt 2>&1
    timeout 60 $O/$app-cuda $g $o --runs 1 --output /tmp/b.out --force > $R/summary-old-$name-$app.txt 2>&1
    cmp -s /tmp/a.out /tmp/b.out && echo "$name $app answers: same" >> $f || echo "$name $app answers: DIFFER" >> $f
    for rep in 1 2 3; do
      echo "$name $app old rep$rep $(med $O/$app-cuda $g $o)" >> $f
      echo "$name $app line1 rep$rep $(med $B/$app-cuda $g $o --auto-merge-path-items 1)" >> $f
      echo "$name $app per2 rep$rep $(med $B/$app-cuda $g $o --auto-merge-path-items 264)" >> $f
      echo "$name $app per8 rep$rep $(med $B/$app-cuda $g $o)" >> $f
      echo "$name $app per32 rep$rep $(med $B/$app-cuda $g $o --auto-merge-path-items 4224)" >> $f
      echo "$name $app per128 rep$rep $(med $B/$app-cuda $g $o --auto-merge-path-items 16896)" >> $f
      for s in twc warp merge-path alb; do echo "$name $app $s rep$rep $(med $B/$app-cuda-$s $g $o)" >> $f; done
    done
  done
done
tar -C $R -czf $OUT/rN.tgz .
grep -c same $f; grep DIFFER $f; wc -l $f
