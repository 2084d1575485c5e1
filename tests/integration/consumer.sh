#!/usr/bin/env bash
# Builds lang-examples/consumer (a separate CMake project) against this build
# tree through find_package(irglc), then runs what it built on a small graph:
#   consumer.sh SOURCE_ROOT BUILD_ROOT WORK_DIR GRAPH cpu
#     builds, runs the CPU program (irglc_add_program ... CPU) and checks its
#     answer with irgl-check, and runs the application on CPU libraries
#     (irglc_add_sources ... CPU);
#   consumer.sh SOURCE_ROOT BUILD_ROOT WORK_DIR GRAPH gpu
#     runs the library-mode application and the CUDA program (built by the
#     cpu step); exits 77 (skipped) when they find no GPU.
set -euo pipefail
source_root=$1 build_root=$2 work=$3 graph=$4 part=$5
check() {
  "$build_root/bin/irgl-check" --algorithm sssp --weights hash:100 "$graph" "$1" | grep -q PASS ||
    { echo "consumer: $1 does not match irgl-check" >&2; exit 1; }
}
if [ "$part" = cpu ]; then
  cmake -S "$source_root/lang-examples/consumer" -B "$work" -G Ninja \
    -Dirglc_DIR="$build_root" -DCMAKE_BUILD_TYPE=Release > "$work.configure.log" 2>&1 ||
    { cat "$work.configure.log"; exit 1; }
  cmake --build "$work"
  "$work/sssp-cpu" "$graph" --weights hash:100 --source 1 -o "$work/sssp-cpu.txt" --force
  check "$work/sssp-cpu.txt"
  "$work/reachability-cpu" "$graph" 1 | grep -q "bfs and sssp agree" ||
    { echo "consumer: reachability-cpu: bfs and sssp disagree" >&2; exit 1; }
  exit 0
fi
set +e
"$work/reachability" "$graph" 1
status=$?
set -e
[ $status -ne 0 ] && exit $status
"$work/sssp-gpu" "$graph" --weights hash:100 --source 1 -o "$work/sssp-gpu.txt" --force
check "$work/sssp-gpu.txt"
