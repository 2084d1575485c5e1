#!/usr/bin/env bash
# GPU call: the new examples (bc, jaccard, tc_per_vertex) against the checker
# and the CPU builds, under compute-sanitizer, their times; the package's
# tests and networkx's through the backend on the GPU.
set -u
root=$PWD; c=$root/.device-carry
export IRGL_NO_PROGRESS=1 PYTHONUNBUFFERED=1
(nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; python3 --version) > $OUT/env.txt 2>&1; cat $OUT/env.txt
rm -rf $c/bin; mkdir -p $c/bin && tar xJf $c/bin.tar.xz -C $c/bin
export PATH=$c/bin:$PATH
step() {  # NAME SECONDS COMMAND...
  local name=$1 s=$2; shift 2; local t=$(date +%s)
  timeout $s "$@" > $OUT/$name.log 2>&1; echo "$name: exit $? in $(( $(date +%s) - t )) s"; tail -${TAIL:-4} $OUT/$name.log
}
# Python first: its module build runs on the CPU cores while the GPU checks go.
export LD_LIBRARY_PATH=$c/pybuild/libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
( timeout 240 $c/pybuild/install.sh > $OUT/install.log 2>&1; echo "install: exit $?" >> $OUT/install.log ) &
install=$!
for a in bc jaccard tc_per_vertex; do
  TAIL=2 step cases-$a 90 python3 tests/lit/irglc/Inputs/run_cases.py --data tests/data --datasets $c/data \
    --reference $c/bin/$a-cpu $a $c/bin/$a-cuda tests/lit/irglc/examples/Inputs/$a.cases ::program --runs 2
done
APPS="bc jaccard tc_per_vertex" EXTRA_GRAPHS="rmat:scale=16: grid:100x100:" JOBS=8 WORK_DIR=/tmp/ce TAIL=3 \
  step check-new 150 tools/gpu/check-examples.sh $c/bin $c/data cuda
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for a in bc jaccard tc_per_vertex; do
  case $a in bc) o="--sources 8 --endpoints true" ;; jaccard) o="--source 3" ;; *) o="" ;; esac
  for g in $c/data/tiny/karate.mtx.xz rmat:scale=12; do
    for tool in memcheck racecheck synccheck; do
      timeout 120 $san --tool $tool --error-exitcode 9 $c/bin/$a-cuda $g $o > /tmp/san.log 2>&1
      echo "[$?] $tool $a $g $o: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log | head -1)"
    done
  done
done > $OUT/sanitize.log 2>&1
echo "sanitize: $(grep -c '^\[0\]' $OUT/sanitize.log) clean of $(grep -c '^\[' $OUT/sanitize.log)"; grep '^\[[1-9]' $OUT/sanitize.log | head
{
  for g in rmat:scale=20 rmat:scale=22; do
    $c/bin/bc-cuda $g --sources 64 --runs 3 2>&1 | grep -E "^time|^result|vertices"
    $c/bin/jaccard-cuda $g --source random --runs 7 2>&1 | grep -E "^time|^result"
    $c/bin/tc-cuda $g --runs 5 2>&1 | grep -E "^time|^result"
    $c/bin/tc_per_vertex-cuda $g --runs 5 2>&1 | grep -E "^time|^result"
  done
  $c/bin/bc-cuda $c/data/road/luxembourg_osm.mtx.xz --sources 16 --runs 3 2>&1 | grep -E "^time|^result|vertices"
} > $OUT/times.log 2>&1; echo "times:"; cat $OUT/times.log
wait $install; tail -2 $OUT/install.log
export PYTHONPATH=/tmp/site IRGLC=$c/irglc-stub.py
cd $root/python/tests
TAIL=3 step pytest 150 python3 -m pytest -q -p no:cacheprovider -n 8 -rs -k "not diagnostics" test_irgl.py test_devices.py test_nx_backend.py
cd $root
TAIL=12 step networkx 200 python/tests/networkx/run.sh python3
