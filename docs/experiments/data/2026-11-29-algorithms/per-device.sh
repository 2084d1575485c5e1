#!/usr/bin/env bash
# GPU call: launch sites' state per GPU (every example rebuilt), sssp_real,
# bc's choice by depth; the package's tests and networkx's on the GPU.
set -u
root=$PWD; c=$root/.device-carry
export IRGL_NO_PROGRESS=1 PYTHONUNBUFFERED=1
nvidia-smi -L
rm -rf $c/bin; mkdir -p $c/bin && tar xJf $c/bin.tar.xz -C $c/bin
export PATH=$c/bin:$PATH
step() {  # NAME SECONDS COMMAND...
  local name=$1 s=$2; shift 2; local t=$(date +%s)
  timeout $s "$@" > $OUT/$name.log 2>&1; echo "$name: exit $? in $(( $(date +%s) - t )) s"; tail -${TAIL:-4} $OUT/$name.log
}
export LD_LIBRARY_PATH=$c/pybuild/libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
( timeout 280 $c/pybuild/install.sh > $OUT/install.log 2>&1; echo "install: exit $?" >> $OUT/install.log ) &
install=$!
for a in sssp_real bc; do
  TAIL=2 step cases-$a 90 python3 tests/lit/irglc/Inputs/run_cases.py --data tests/data --datasets $c/data \
    --reference $c/bin/$a-cpu $a $c/bin/$a-cuda tests/lit/irglc/examples/Inputs/$a.cases ::program --runs 2
done
APPS="bfs sssp sssp_real cc pr mis bc jaccard tc_per_vertex" EXTRA_GRAPHS="rmat:scale=16: grid:100x100:" JOBS=6 \
  WORK_DIR=/tmp/ce TAIL=3 step check-all 200 tools/gpu/check-examples.sh $c/bin $c/data cuda
for p in four_in_a_row octree; do
  case $p in four_in_a_row) o="--lookahead 6" ;; *) o="--count 200000" ;; esac
  echo "$p cpu: $($c/bin/$p-cpu $o 2>&1 | grep '^result' | tr '\n' ' ')"
  echo "$p gpu: $($c/bin/$p-cuda $o --runs 2 2>&1 | grep '^result' | tr '\n' ' ')"
done | tee $OUT/tasks.log
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for g in $c/data/tiny/karate.mtx.xz rmat:scale=12; do
  for tool in memcheck racecheck; do
    timeout 100 $san --tool $tool --error-exitcode 9 $c/bin/sssp_real-cuda $g --weights hash:20 --weight-type float > /tmp/san.log 2>&1
    echo "[$?] $tool sssp_real $g: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log | head -1)"
  done
done > $OUT/sanitize.log 2>&1; echo "sanitize: $(grep -c '^\[0\]' $OUT/sanitize.log) clean of $(grep -c '^\[' $OUT/sanitize.log)"
{
  for g in $c/data/road/luxembourg_osm.mtx.xz $c/data/road/moscow_roads.gr.xz $c/data/powerlaw/cnr-2000.txt.xz rmat:scale=20 rmat:scale=22; do
    for p in bc-levels-cuda bc-cuda; do
      echo "== $p $g"; timeout 100 $c/bin/$p $g --sources 32 --runs 3 2>&1 | grep -E "^time"
    done
  done
  for g in $c/data/road/moscow_roads.gr.xz rmat:scale=22; do
    for o in "" "--outline off"; do
      for p in bfs-old-cuda bfs-cuda; do
        echo "== $p $g $o"; timeout 60 $c/bin/$p $g --source 0 $o --runs 9 2>&1 | grep -E "^time"
      done
    done
  done
  for g in "rmat:scale=22 --weights hash:100" "$c/data/road/moscow_roads.gr.xz"; do
    echo "== sssp $g"; timeout 60 $c/bin/sssp-cuda $g --source 0 --runs 5 2>&1 | grep -E "^time"
    echo "== sssp_real $g"; timeout 60 $c/bin/sssp_real-cuda $g --weight-type float --source 0 --runs 5 2>&1 | grep -E "^time"
  done
} > $OUT/times.log 2>&1; cat $OUT/times.log
wait $install; tail -2 $OUT/install.log
export PYTHONPATH=/tmp/site IRGLC=$c/irglc-stub.py
cd $root/python/tests
TAIL=3 step pytest 150 python3 -m pytest -q -p no:cacheprovider -n 8 -rs -k "not diagnostics and not compile" test_irgl.py test_devices.py test_nx_backend.py
cd $root
TAIL=12 step networkx 200 python/tests/networkx/run.sh python3
