#!/usr/bin/env bash
# Session of 2026-11-30 (second): outlined loops of iterations (pr, mis,
# coloring, cc_afforest) on the GPU. 1) answers: check-examples.sh for pr
# (every schedule, --outline persistent, auto and off), mis and coloring;
# cc_afforest by hand against irgl-check; 2) sanitizers; 3) pr times with
# the loop on the device (auto, persistent) and on the host (off), GAP's pr
# on the same host cores, and mis/coloring auto vs off.
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/s33 && tar -xJf s33.tar.xz -C /tmp/s33
bin=/tmp/s33/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR /tmp/r33
nproc > /tmp/r33/host.txt
stamp() { echo "[$(( $(date +%s) - start )) s] $*"; }

# 1) answers
stamp answers
APPS="pr" JOBS=8 WORK_DIR=/tmp/w33a EXTRA_GRAPHS="rmat:scale=18: grid:300x300:" \
  timeout 200 bash $root/tools/gpu/check-examples.sh $bin $data cuda cuda@outline=persistent cuda@outline=off \
  cuda-alb@outline=persistent cuda-twc@outline=persistent cuda-lb@outline=persistent \
  cuda-merge-path@outline=persistent cuda-thread@outline=persistent cuda-warp@outline=persistent \
  cuda-vwarp@outline=persistent cuda-dvwarp@outline=persistent cuda-multi-phase@outline=persistent \
  cuda-dp@outline=persistent > /tmp/r33/check-pr.log 2>&1
echo "check pr exit $?"; tail -3 /tmp/r33/check-pr.log
APPS="mis coloring" JOBS=8 WORK_DIR=/tmp/w33b EXTRA_GRAPHS="rmat:scale=18: grid:300x300:" \
  timeout 100 bash $root/tools/gpu/check-examples.sh $bin $data cuda cuda@outline=persistent cuda@outline=off \
  > /tmp/r33/check-mis.log 2>&1
echo "check mis/coloring exit $?"; tail -3 /tmp/r33/check-mis.log
stamp afforest
for g in road/minnesota.mtx.xz road/usroads.mtx.xz powerlaw/cnr-2000.txt.xz powerlaw/ego-twitter-undirected.txt.xz rmat:scale=18 grid:300x300; do
  path=$g; case $g in rmat:*|grid:*) ;; *) path=$data/$g ;; esac
  for mode in auto persistent off; do
    timeout 60 $bin/cc-afforest-cuda $path --symmetrize --outline $mode -o /tmp/r33/aff.txt --force > /tmp/r33/aff.log 2>&1
    timeout 60 $bin/irgl-check --algorithm cc --symmetrize $path /tmp/r33/aff.txt > /tmp/r33/affcheck.log 2>&1
    echo "cc_afforest $(basename $g) $mode: check exit $? $(tail -1 /tmp/r33/affcheck.log)"
  done
done | tee /tmp/r33/afforest.txt

# 2) sanitizers
stamp sanitizers
for tool in memcheck racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $bin/pr-cuda $data/road/minnesota.mtx.xz --outline persistent --runs 1 > /tmp/r33/pr-$tool.log 2>&1
  echo "pr $tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/r33/pr-$tool.log)"
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $bin/mis-cuda $data/tiny/netscience.mtx.xz --simple --outline persistent --runs 1 > /tmp/r33/mis-$tool.log 2>&1
  echo "mis $tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/r33/mis-$tool.log)"
done | tee /tmp/r33/sanitizers.txt

# 3) times
stamp times
graphs="road/minnesota.mtx.xz road/rome99.gr.xz road/monaco.wel.xz road/luxembourg_osm.mtx.xz road/usroads.mtx.xz road/moscow_roads.txt.xz powerlaw/ego-twitter-undirected.txt.xz powerlaw/musae_git_edges.csv.xz powerlaw/cnr-2000.txt.xz powerlaw/uk-2007-05-100000.txt.xz rmat:scale=20 grid:1000x1000 rmat:scale=22"
for g in $graphs; do
  path=$g; case $g in rmat:*|grid:*) ;; *) path=$data/$g ;; esac
  name=$(basename $g)
  for mode in auto persistent off; do
    echo "pr $name $mode: $(timeout 60 $bin/pr-cuda $path --outline $mode --runs 7 --warmup 1 2>&1 | grep -E '^time:|iterations' | tr '\n' ' ')"
  done
  echo "pr $name gap: $(timeout 60 bash $root/tools/bench/gap.sh run --gap /tmp/s33/gap --app pr --graph $path --irgl-graph $bin/irgl-graph --trials 7 --verify once 2>&1 | tail -1)"
done | tee /tmp/r33/pr-times.txt
stamp mis-times
for g in road/usroads.mtx.xz powerlaw/cnr-2000.txt.xz powerlaw/ego-twitter-undirected.txt.xz rmat:scale=20; do
  path=$g; case $g in rmat:*|grid:*) ;; *) path=$data/$g ;; esac
  for app in mis coloring; do
    for mode in auto off; do
      echo "$app $(basename $g) $mode: $(timeout 60 $bin/$app-cuda $path --simple --outline $mode --runs 7 --warmup 1 2>&1 | grep '^time:')"
    done
  done
done | tee /tmp/r33/mis-times.txt
stamp done
tar -C /tmp -cJf $OUT/r33.tar.xz r33
