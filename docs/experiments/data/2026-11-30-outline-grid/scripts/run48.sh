#!/usr/bin/env bash
# The in-kernel auto pick sees the Body's edge cost: cc_afforest's linking
# on graphs with hubs runs merge-path in the kernel. Tests, matrix,
# sanitizers, and cc_afforest by schedule x outline mode. Keeps cuGraph part 0.
set -u
start=$(date +%s)
cd "$(dirname "$0")"
root=$(cd .. && pwd)
mkdir -p /tmp/cgparts && cp cg/dp0/p0 /tmp/cgparts/ && echo "part0 kept: $(du -b /tmp/cgparts/p0)"
mkdir -p /tmp/s48 && tar -xJf s48.tar.xz -C /tmp/s48
cp REVISION "$root/REVISION"
bin=/tmp/s48/bin; data=$(pwd)/data
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=/tmp/irgl-cache
mkdir -p $IRGL_CACHE_DIR /tmp/r48
stamp() { echo "[$(( $(date +%s) - start )) s] $*"; }
timeout 30 $bin/irgl_gpu_runtime_tests --gtest_filter='Outline*:AutoInKernel*' > /tmp/r48/tests.log 2>&1
echo "tests exit $?"; grep -E "^\[  (PASSED|FAILED)" /tmp/r48/tests.log
APPS="cc" JOBS=8 WORK_DIR=/tmp/w48 timeout 40 bash $root/tools/gpu/check-examples.sh $bin $data afforest-cuda afforest-cuda@outline=off > /tmp/r48/afforest.log 2>&1
echo "afforest exit $?"; tail -1 /tmp/r48/afforest.log; grep -vE "PASS|^app " /tmp/r48/afforest.log | head
for tool in memcheck racecheck synccheck; do
  timeout 40 compute-sanitizer --tool $tool --error-exitcode 9 $bin/cc-afforest-cuda $data/powerlaw/musae_git_edges.csv.xz --symmetrize --runs 1 > /tmp/r48/afforest-$tool.log 2>&1
  echo "cc_afforest musae $tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/r48/afforest-$tool.log)"
done
$bin/cc-afforest-cuda $data/powerlaw/cnr-2000.txt.xz --symmetrize --runs 1 2>&1 | grep -i "schedule auto" | head -2
stamp timing
echo "graph build outline median_ms" > /tmp/r48/timing.txt
for g in powerlaw/cnr-2000.txt.xz powerlaw/musae_git_edges.csv.xz powerlaw/ego-twitter-undirected.txt.xz powerlaw/uk-2007-05-100000.txt.xz road/moscow_roads.txt.xz road/moscow_roads.gr.xz road/usroads.mtx.xz road/luxembourg_osm.mtx.xz road/rome99.gr.xz road/monaco.wel.xz road/minnesota.mtx.xz; do
  for b in cc-afforest-cuda-old cc-afforest-cuda cc-afforest-cuda-lb cc-afforest-cuda-mp; do
    for o in auto off; do
      m=$(timeout 30 $bin/$b $data/$g --symmetrize --runs 9 --outline $o 2>&1 | sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p')
      echo "$(basename $g) $b $o ${m:-FAIL}" >> /tmp/r48/timing.txt
    done
  done
done
column -t /tmp/r48/timing.txt
stamp done
tar -C /tmp -cJf $OUT/r48.tar.xz r48
