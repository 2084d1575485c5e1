#!/usr/bin/env bash
# Next session's first call (prepared 2026-11-30): sssp_near_far on the GPU.
# Needs .device-carry/s32.tar.xz: sssp-near-far-cuda (auto), its -cpu,
# sssp-cuda, sssp-cpu, irgl-check, irgl-graph, irgl-bandwidth (pack with
# /tmp/pack.sh s32 ... or by hand). 1) answers against the CPU on road,
# web, grid and RMAT inputs, --outline auto and off; 2) memcheck/racecheck;
# 3) timing against sssp (auto) with --delta 0 and a sweep.
set -u
cd "$(dirname "$0")"
mkdir -p /tmp/s32 && tar -xJf s32.tar.xz -C /tmp/s32
bin=/tmp/s32/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR /tmp/r32
graphs="$data/road/usroads.mtx.xz $data/road/luxembourg_osm.mtx.xz $data/road/moscow_roads.txt.xz $data/road/minnesota.mtx.xz $data/powerlaw/cnr-2000.txt.xz grid:1000x1000 rmat:scale=18"
for g in $graphs; do
  name=$(basename $g)
  timeout 60 $bin/sssp-cpu $g --weights=hash:100 --source 0 -o /tmp/r32/ref-$name.txt --force > /dev/null 2>&1
  for variant in "--outline auto" "--outline off" "--outline persistent" "--outline graph" \
                 "--frontier unique" "--frontier dense" "--frontier sweep" "--delta 1" "--delta 100000"; do
    tag=$(echo $variant | tr -d ' -')
    timeout 60 $bin/sssp-near-far-cuda $g --weights=hash:100 --source 0 $variant -o /tmp/r32/nf-$name.txt --force > /tmp/r32/nf-$name-$tag.log 2>&1
    cmp -s <(grep -v '^#' /tmp/r32/ref-$name.txt) <(grep -v '^#' /tmp/r32/nf-$name.txt) && r=EQUAL || r=DIFFER
    echo "$name $variant: $r $(grep '^time:' /tmp/r32/nf-$name-$tag.log)"
  done
done | tee /tmp/r32/answers.txt
for tool in memcheck racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $bin/sssp-near-far-cuda $data/road/minnesota.mtx.xz --weights=hash:100 --source 0 --runs 1 > /tmp/r32/$tool.log 2>&1
  echo "$tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/r32/$tool.log)"
done
for g in $graphs grid:4096x4096 rmat:scale=22; do
  for prog in sssp-cuda sssp-near-far-cuda; do
    echo "$(basename $g) $prog: $(timeout 60 $bin/$prog $g --weights=hash:100 --source 0 --runs 7 --warmup 1 2>&1 | grep '^time:')"
  done
  for d in 8 32 128 512 2048; do
    echo "$(basename $g) near-far delta $d: $(timeout 60 $bin/sssp-near-far-cuda $g --weights=hash:100 --source 0 --runs 7 --warmup 1 --delta $d 2>&1 | grep '^time:')"
  done
done | tee /tmp/r32/times.txt
tar -C /tmp -cJf $OUT/r32.tar.xz r32
