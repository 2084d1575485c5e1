#!/usr/bin/env bash
# GPU call: louvain.irgl against the checker and the CPU build, under
# compute-sanitizer, its times; the package's louvain and networkx's louvain
# tests through the backend on the GPU.
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
export LD_LIBRARY_PATH=$c/pybuild/libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
( timeout 240 $c/pybuild/install.sh > $OUT/install.log 2>&1; echo "install: exit $?" >> $OUT/install.log ) &
install=$!
cases=tests/lit/irglc/examples/Inputs
# GPU against CPU on the datasets the CPU build runs in seconds (background).
grep -v -e cnr-2000 -e uk-2007 -e ego-twitter $cases/louvain-datasets.cases > /tmp/ds17.cases
( timeout 400 python3 tests/lit/irglc/Inputs/run_cases.py --data tests/data --datasets $c/data \
    --reference $c/bin/louvain-cpu louvain $c/bin/louvain-cuda /tmp/ds17.cases > $OUT/same-datasets.log 2>&1
  echo "same-datasets: exit $?" >> $OUT/same-datasets.log ) &
same=$!
TAIL=2 step cases 120 python3 tests/lit/irglc/Inputs/run_cases.py --data tests/data --datasets $c/data \
    --reference $c/bin/louvain-cpu louvain $c/bin/louvain-cuda $cases/louvain.cases ::program --runs 2
TAIL=2 step datasets 240 python3 tests/lit/irglc/Inputs/run_cases.py --data tests/data --datasets $c/data \
    louvain $c/bin/louvain-cuda $cases/louvain-datasets.cases
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for g in $c/data/tiny/karate.mtx.xz rmat:scale=10 grid:20x20; do
  for tool in memcheck racecheck synccheck; do
    timeout 120 $san --tool $tool --error-exitcode 9 $c/bin/louvain-cuda $g --weights unit > /tmp/san.log 2>&1
    echo "[$?] $tool louvain $g: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log | head -1)"
  done
done > $OUT/sanitize.log 2>&1
echo "sanitize: $(grep -c '^\[0\]' $OUT/sanitize.log) clean of $(grep -c '^\[' $OUT/sanitize.log)"; grep '^\[[1-9]' $OUT/sanitize.log | head
{
  for g in $c/data/road/luxembourg_osm.mtx.xz $c/data/road/moscow_roads.gr.xz $c/data/powerlaw/cnr-2000.txt.xz \
           $c/data/powerlaw/ego-twitter-undirected.txt.xz rmat:scale=20 rmat:scale=22; do
    echo "== $g"; timeout 150 $c/bin/louvain-cuda $g --weights unit --runs 3 2>&1 | grep -E "^time|^result|vertices,"
  done
} > $OUT/times.log 2>&1; echo "times:"; cat $OUT/times.log
wait $same; tail -3 $OUT/same-datasets.log
wait $install; tail -2 $OUT/install.log
export PYTHONPATH=/tmp/site IRGLC=$c/irglc-stub.py
cd $root/python/tests
TAIL=3 step pytest 150 python3 -m pytest -q -p no:cacheprovider -n 8 -rs -k "louvain" test_irgl.py test_nx_backend.py
cd $root
TAIL=8 step networkx 200 python/tests/networkx/run.sh python3 -k louvain
