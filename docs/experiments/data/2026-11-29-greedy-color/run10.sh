#!/usr/bin/env bash
# GPU call: coloring.irgl painting a window of 64 colours per round (against the
# CPU build, the checker, sanitizers), its times against the previous
# build (64 + round above 64), default and largest-first ranks.
set -u
root=$PWD; c=$root/.device-carry
export IRGL_NO_PROGRESS=1
nvidia-smi -L
rm -rf $c/bin; mkdir -p $c/bin && tar xJf $c/bin.tar.xz -C $c/bin
step() {  # NAME SECONDS COMMAND...
  local name=$1 s=$2; shift 2; local t=$(date +%s)
  timeout $s "$@" > $OUT/$name.log 2>&1; echo "$name: exit $? in $(( $(date +%s) - t )) s"; tail -${TAIL:-4} $OUT/$name.log
}
export PATH=$c/bin:$PATH
cases=tests/lit/irglc/examples/Inputs
TAIL=2 step cases 120 python3 tests/lit/irglc/Inputs/run_cases.py --data tests/data --datasets $c/data \
    --reference $c/bin/coloring-cpu coloring $c/bin/coloring-cuda $cases/coloring.cases ::program --runs 2
TAIL=2 step datasets-largest-first 200 python3 tests/lit/irglc/Inputs/run_cases.py --data tests/data --datasets $c/data \
    --reference $c/bin/coloring-cpu coloring $c/bin/coloring-cuda $cases/coloring-datasets.cases ::program --largest-first true
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for g in "rmat:scale=12,edge-factor=64 --simple" "grid:20x20 --simple" "rmat:scale=10 --simple"; do
  for tool in memcheck racecheck synccheck; do
    timeout 120 $san --tool $tool --error-exitcode 9 $c/bin/coloring-cuda $g --largest-first true > /tmp/san.log 2>&1
    echo "[$?] $tool coloring $g: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log | head -1)"
  done
done > $OUT/sanitize.log 2>&1
echo "sanitize: $(grep -c '^\[0\]' $OUT/sanitize.log) clean of $(grep -c '^\[' $OUT/sanitize.log)"; grep '^\[[1-9]' $OUT/sanitize.log | head
for g in rmat:scale=22 $c/data/powerlaw/cnr-2000.txt.xz $c/data/road/moscow_roads.gr.xz; do
  for p in coloring-old-cuda coloring-cuda "coloring-cuda --largest-first true"; do
    echo "== $g $p: $(timeout 90 $c/bin/$p $g --simple --runs 3 2>&1 | grep -E '^time|^result' | tr '\n' ' ')"
  done
done 2>&1 | tee $OUT/times.txt
