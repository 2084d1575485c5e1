#!/usr/bin/env bash
# GPU call: bc counting successors only for deep searches; four_in_a_row.
set -u
root=$PWD; c=$root/.device-carry
export IRGL_NO_PROGRESS=1
nvidia-smi -L
rm -rf $c/bin; mkdir -p $c/bin && tar xJf $c/bin.tar.xz -C $c/bin
export PATH=$c/bin:$PATH
echo "four_in_a_row cpu: $($c/bin/four_in_a_row-cpu --lookahead 6 2>&1 | grep '^result' | tr '\n' ' ')"
echo "four_in_a_row gpu: $($c/bin/four_in_a_row-cuda --lookahead 6 --task-slots 65536 --runs 2 2>&1 | grep '^result' | tr '\n' ' ')"
$c/bin/four_in_a_row-cuda --lookahead 6 2>&1 | tail -3
python3 tests/lit/irglc/Inputs/run_cases.py --data tests/data --datasets $c/data \
    --reference $c/bin/bc-cpu bc $c/bin/bc-cuda tests/lit/irglc/examples/Inputs/bc.cases ::program --runs 2 2>&1 | tail -2
APPS="bc" EXTRA_GRAPHS="rmat:scale=16: grid:100x100:" JOBS=4 WORK_DIR=/tmp/ce tools/gpu/check-examples.sh $c/bin $c/data cuda 2>&1 | tail -1
for g in $c/data/road/luxembourg_osm.mtx.xz $c/data/road/moscow_roads.gr.xz $c/data/powerlaw/cnr-2000.txt.xz rmat:scale=20 rmat:scale=22; do
  for p in bc-levels-cuda bc-cuda; do
    echo "== $p $g $(timeout 100 $c/bin/$p $g --sources 32 --runs 3 2>&1 | grep -E '^time')"
  done
done
