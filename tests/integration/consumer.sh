#!/usr/bin/env bash
# Builds lang-examples/consumer (a separate CMake project) against this build
# tree through find_package(irglc), then runs it on a small graph. Exits 77
# (skipped) when the program finds no GPU.
#   consumer.sh SOURCE_ROOT BUILD_ROOT WORK_DIR GRAPH
set -euo pipefail
source_root=$1 build_root=$2 work=$3 graph=$4
cmake -S "$source_root/lang-examples/consumer" -B "$work" -G Ninja \
  -Dirglc_DIR="$build_root" -DCMAKE_BUILD_TYPE=Release > "$work.configure.log" 2>&1 ||
  { cat "$work.configure.log"; exit 1; }
cmake --build "$work"
set +e
"$work/reachability" "$graph" 1
status=$?
set -e
exit $status
