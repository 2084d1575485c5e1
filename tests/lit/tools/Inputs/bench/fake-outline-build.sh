#!/usr/bin/env bash
# Stand-in for a GPU build with outlined loops: runs the CPU build given as
# $1 without the --outline MODE it does not know.
program=$1
shift
args=()
while [ $# -gt 0 ]; do
  if [ "$1" = --outline ]; then shift 2; continue; fi
  args+=("$1")
  shift
done
exec "$program" "${args[@]}"
