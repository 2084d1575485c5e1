#!/usr/bin/env bash
# GPU call: louvain.irgl's iterations per level (a traced build), the
# datasets against the new tolerance, GPU against CPU through
# check-examples, networkx against the backend from Python.
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
TAIL=2 step datasets 200 python3 tests/lit/irglc/Inputs/run_cases.py --data tests/data --datasets $c/data \
    louvain $c/bin/louvain-cuda $cases/louvain-datasets.cases
APPS="louvain" GRAPHS='tiny|road|spmv|musae' EXTRA_GRAPHS="rmat:scale=16: grid:100x100:" JOBS=8 WORK_DIR=/tmp/ce TAIL=3 \
  step check-louvain 200 tools/gpu/check-examples.sh $c/bin $c/data cuda
{
  for g in $c/data/powerlaw/cnr-2000.txt.xz rmat:scale=20 rmat:scale=22 $c/data/road/moscow_roads.gr.xz; do
    echo "== $g"; timeout 100 $c/bin/louvain-trace-cuda $g --weights unit > /tmp/trace.log 2>&1
    grep -E "^time|modularity:" /tmp/trace.log; grep "^L" /tmp/trace.log | awk '{print $1}' | uniq -c | tr '\n' ' '; echo
    grep "^L0" /tmp/trace.log | awk 'NR % 25 == 1' | tr '\n' ';'; echo
  done
} > $OUT/trace.log 2>&1; echo "trace:"; cat $OUT/trace.log
wait $install; tail -1 $OUT/install.log
export PYTHONPATH=/tmp/site IRGLC=$c/irglc-stub.py
TAIL=6 step nxlouvain 200 python3 $c/nxlouvain.py $c/data/tiny/netscience.mtx.xz $c/data/road/luxembourg_osm.mtx.xz $c/data/powerlaw/musae_git_edges.csv.xz
