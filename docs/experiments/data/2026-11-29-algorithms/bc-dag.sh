#!/usr/bin/env bash
# GPU call: bc as a DAG of reports (pipe loops) against the checker, the CPU
# build and under compute-sanitizer; its times against the level-by-level
# form (bc-levels-cuda) in the same call; the package's bc on the GPU.
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
( timeout 240 $c/pybuild/install.sh > $OUT/install.log 2>&1; echo "install: exit $?" >> $OUT/install.log ) &
install=$!
TAIL=2 step cases-bc 90 python3 tests/lit/irglc/Inputs/run_cases.py --data tests/data --datasets $c/data \
    --reference $c/bin/bc-cpu bc $c/bin/bc-cuda tests/lit/irglc/examples/Inputs/bc.cases ::program --runs 2
APPS="bc" EXTRA_GRAPHS="rmat:scale=16: grid:100x100:" JOBS=4 WORK_DIR=/tmp/ce TAIL=3 \
  step check-bc 150 tools/gpu/check-examples.sh $c/bin $c/data cuda
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for g in $c/data/tiny/karate.mtx.xz rmat:scale=12 $c/data/road/minnesota.mtx.xz; do
  for tool in memcheck racecheck synccheck; do
    timeout 120 $san --tool $tool --error-exitcode 9 $c/bin/bc-cuda $g --sources 4 --endpoints true > /tmp/san.log 2>&1
    echo "[$?] $tool bc $g: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log | head -1)"
  done
done > $OUT/sanitize.log 2>&1
echo "sanitize: $(grep -c '^\[0\]' $OUT/sanitize.log) clean of $(grep -c '^\[' $OUT/sanitize.log)"; grep '^\[[1-9]' $OUT/sanitize.log | head
{
  for g in $c/data/tiny/karate.mtx.xz $c/data/road/luxembourg_osm.mtx.xz $c/data/road/moscow_roads.gr.xz \
           $c/data/powerlaw/cnr-2000.txt.xz rmat:scale=20 rmat:scale=22 rmat:scale=24; do
    for p in bc-levels-cuda bc-cuda; do
      echo "== $p $g"; timeout 100 $c/bin/$p $g --sources 32 --runs 3 2>&1 | grep -E "^time|^result|vertices,"
    done
  done
} > $OUT/times.log 2>&1; cat $OUT/times.log
wait $install; tail -2 $OUT/install.log
export PYTHONPATH=/tmp/site
cd $root/python/tests
TAIL=3 step pytest 150 python3 -m pytest -q -p no:cacheprovider -n 8 -rs -k "not diagnostics" test_irgl.py test_devices.py test_nx_backend.py
cd $root
TAIL=12 step networkx 200 python/tests/networkx/run.sh python3
