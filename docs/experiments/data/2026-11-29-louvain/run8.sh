#!/usr/bin/env bash
# GPU call: louvain.irgl with kCarefulIterations (level 0's tail) against
# the checker and the CPU build, sanitizers, times and iterations; the
# whole package and networkx's suite through the backend on the GPU.
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
    --reference $c/bin/louvain-cpu louvain $c/bin/louvain-cuda $cases/louvain.cases ::program --runs 2
TAIL=2 step datasets 200 python3 tests/lit/irglc/Inputs/run_cases.py --data tests/data --datasets $c/data \
    louvain $c/bin/louvain-cuda $cases/louvain-datasets.cases
APPS="louvain" GRAPHS='tiny|road|spmv|musae' EXTRA_GRAPHS="rmat:scale=16: grid:100x100:" JOBS=8 WORK_DIR=/tmp/ce TAIL=2 \
  step check-louvain 200 tools/gpu/check-examples.sh $c/bin $c/data cuda
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
    echo "== $g"; timeout 100 $c/bin/louvain-cuda $g --weights unit --runs 3 2>&1 | grep -E "^time|^result|vertices,"
    timeout 100 $c/bin/louvain-trace-cuda $g --weights unit 2>&1 | grep "^L" | awk '{print $1}' | uniq -c | tr '\n' ' '; echo
  done
} > $OUT/times.txt 2>&1; echo "times:"; cat $OUT/times.txt
wait $install; tail -1 $OUT/install.log
export PYTHONPATH=/tmp/site IRGLC=$c/irglc-stub.py
cd $root/python/tests
TAIL=3 step pytest 200 python3 -m pytest -q -p no:cacheprovider -n 8 -rs -k "not diagnostics and not compile" test_irgl.py test_devices.py test_nx_backend.py
cd $root
TAIL=14 step networkx 200 python/tests/networkx/run.sh python3
TAIL=6 step nxlouvain 150 python3 $c/nxlouvain.py $c/data/tiny/netscience.mtx.xz $c/data/road/luxembourg_osm.mtx.xz $c/data/powerlaw/musae_git_edges.csv.xz
