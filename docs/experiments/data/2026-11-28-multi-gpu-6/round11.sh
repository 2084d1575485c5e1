#!/bin/bash
# x4: the example matrix (check-examples.sh with LAUNCHER), every policy in
# one invocation per GPU count (MATRIX_S each; COUNTS), after round9.sh's stages.
set -u
root=$(pwd)
bash .device-carry/unpack.sh
bin=$root/.device-carry/bin
export IRGL_NO_PROGRESS=1 NCCL_NVLS_ENABLE=0
CHECK_S=0 bash .device-carry/round9.sh | grep -v "^name,\|^NVIDIA"
mkdir -p /tmp/checks
for n in ${COUNTS:-4 2}; do
  start=$SECONDS
  WORK_DIR=/tmp/w-$n JOBS=${JOBS:-6} LAUNCHER="$root/tools/irgl-launch -n $n" APPS="bfs sssp cc pr kcore" \
    EXTRA_GRAPHS="rmat:scale=18: grid:rows=300,cols=300:" timeout ${MATRIX_S:-150} $root/tools/gpu/check-examples.sh \
    $bin $root/.device-carry/data cuda-parts@partition=oec cuda-parts@partition=iec cuda-parts@partition=cvc \
    > /tmp/checks/check-$n.txt 2>&1
  f=/tmp/checks/check-$n.txt
  echo "n=$n: $((SECONDS - start)) s, $(grep -c PASS $f) pass, $(grep -cE 'FAILED|WRONG|DIFFERS|REFERENCE' $f) bad"
  for p in oec iec cvc; do echo "  $p: $(grep PASS $f | grep -c partition=$p) pass"; done
  grep -E 'FAILED|WRONG|DIFFERS|REFERENCE' $f | head -3
  grep -lE "error|terminate" /tmp/w-$n/*.log 2>/dev/null | head -2 >> /tmp/checks/errlogs.txt
done
for l in $(head -3 /tmp/checks/errlogs.txt 2>/dev/null); do echo "== $l"; tail -20 $l; done > /tmp/checks/errtails.txt 2>&1
tar czf $OUT/checks.tgz -C /tmp checks
