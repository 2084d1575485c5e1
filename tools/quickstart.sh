#!/usr/bin/env bash
# The main job on a fresh machine: installs what is missing, builds
# everything, then
#   1. loads a bundled real graph and a generated RMAT graph and prints their
#      statistics;
#   2. on a GPU, uploads them and runs the GPU self-check;
#   3. compiles an example program (lang-examples/sssp.irgl) to CUDA with
#      irglc, builds it, runs it (on the GPU when there is one, otherwise the
#      sequential CPU build of the same program) and checks its answer with
#      the independent checker.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${IRGL_BUILD_DIR:-$root/build}
bin=$build/bin
work=$build/quickstart
export IRGL_CACHE_DIR=${IRGL_CACHE_DIR:-$build/graph-cache}

step() { printf '\n== %s\n' "$*"; }
run() { printf '$ %s\n' "$*"; "$@"; }

step "Setting up and building (tools/setup.sh, tools/build.sh)"
"$root/tools/setup.sh"
"$root/tools/build.sh"
mkdir -p "$work"

real_graph=$root/tests/data/karate.mtx
rmat=rmat:scale=18,edge-factor=16,seed=1

step "1. Graph statistics: a bundled real graph and a generated RMAT graph"
run "$bin/irgl-graph" stats "$real_graph" "$rmat"

step "2. GPU self-check"
gpu=yes
set +e
run "$bin/irgl-gpu-selfcheck" "$real_graph" "$rmat"
status=$?
set -e
if [ $status -eq 77 ]; then
  gpu=no
  echo "(no usable GPU here: the examples run through the CPU backend)"
elif [ $status -ne 0 ]; then
  echo "quickstart: the GPU self-check failed" >&2
  exit 1
fi

step "3. Compiling lang-examples/sssp.irgl to CUDA with irglc"
run "$bin/irglc" "$root/lang-examples/sssp.irgl" -o "$work/sssp.cu" --force
# The kernel 'relax' as generated: its loop nest (a Body) and the launcher
# that runs it under the default schedule, ALB.
awk '/^\/\/ sssp.irgl:[0-9]*: kernel relax/ { on = 1 } on { print } on && /^void relax\(/ { launcher = 1 }
     launcher && /^}/ { exit }' "$work/sssp.cu"
echo "(the build compiled the same program as $bin/sssp-cuda, and as $bin/sssp-cpu with --target=cpu)"

program=$bin/sssp-cuda
[ $gpu = yes ] || program=$bin/sssp-cpu
step "Running $(basename "$program") on $rmat and checking the answer"
run "$program" "$rmat" --weights=hash:100 --source 1 --runs 3 --output "$work/sssp.out" --force
run "$bin/irgl-check" --algorithm sssp --weights=hash:100 "$rmat" "$work/sssp.out"
echo
echo "quickstart: done (GPU: $gpu)"
