#!/usr/bin/env bash
# Stand-in for a multi-GPU build (<app>-cuda-parts): runs the CPU build
# given as $1 without --partition POLICY, which it does not know.
program=$1
shift
args=()
while [ $# -gt 0 ]; do
  if [ "$1" = --partition ]; then shift 2; continue; fi
  args+=("$1")
  shift
done
exec "$program" "${args[@]}"
