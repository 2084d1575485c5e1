#!/usr/bin/env bash
# GPU call: coloring.irgl with ranks by degree (--largest-first) and the
# exact colour above 64, against the CPU build and the checker, under
# compute-sanitizer; the whole package and networkx's suite (greedy_color
# now through the backend).
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
cases=tests/lit/irglc/examples/Inputs
TAIL=2 step cases 120 python3 tests/lit/irglc/Inputs/run_cases.py --data tests/data --datasets $c/data \
    --reference $c/bin/coloring-cpu coloring $c/bin/coloring-cuda $cases/coloring.cases ::program --runs 2
TAIL=2 step datasets 200 python3 tests/lit/irglc/Inputs/run_cases.py --data tests/data --datasets $c/data \
    --reference $c/bin/coloring-cpu coloring $c/bin/coloring-cuda $cases/coloring-datasets.cases
TAIL=2 step datasets-largest-first 200 python3 tests/lit/irglc/Inputs/run_cases.py --data tests/data --datasets $c/data \
    --reference $c/bin/coloring-cpu coloring $c/bin/coloring-cuda $cases/coloring-datasets.cases ::program --largest-first true
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for g in "$c/data/tiny/karate.mtx.xz --simple" "rmat:scale=12,edge-factor=64 --simple" "grid:20x20 --simple"; do
  for tool in memcheck racecheck synccheck; do
    timeout 120 $san --tool $tool --error-exitcode 9 $c/bin/coloring-cuda $g --largest-first true > /tmp/san.log 2>&1
    echo "[$?] $tool coloring $g: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log | head -1)"
  done
done > $OUT/sanitize.log 2>&1
echo "sanitize: $(grep -c '^\[0\]' $OUT/sanitize.log) clean of $(grep -c '^\[' $OUT/sanitize.log)"; grep '^\[[1-9]' $OUT/sanitize.log | head
{
  for g in rmat:scale=22 $c/data/road/moscow_roads.gr.xz; do
    for o in "" "--largest-first true"; do
      echo "== $g $o: $(timeout 60 $c/bin/coloring-cuda $g --simple $o --runs 3 2>&1 | grep -E '^time|^result' | tr '\n' ' ')"
    done
  done
} > $OUT/times.txt 2>&1; cat $OUT/times.txt
wait $install; tail -1 $OUT/install.log
export PYTHONPATH=/tmp/site IRGLC=$c/irglc-stub.py
cd $root/python/tests
TAIL=3 step pytest 200 python3 -m pytest -q -p no:cacheprovider -n 8 -rs -k "not diagnostics and not compile" test_irgl.py test_devices.py test_nx_backend.py
cd $root
TAIL=14 step networkx 200 python/tests/networkx/run.sh python3
