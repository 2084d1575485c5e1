#!/usr/bin/env bash
# Stand-in for an instrumented build (<app>-cuda-alb-load) in the harness
# tests: runs the CPU build given as $1 and writes a fixed load log where
# --load-report asks for it.
program=$1
shift
args=()
while [ $# -gt 0 ]; do
  if [ "$1" = --load-report ]; then report=$2; shift 2; continue; fi
  [ "$1" = --force ] && { shift; continue; }
  args+=("$1"); shift
done
"$program" "${args[@]}" && cp "$(dirname "$0")/alb-load.json" "$report"
