#!/usr/bin/env bash
# Stand-in for a GPU build that computes a wrong answer: runs the CPU build
# given as $1, then changes the last value of its --output file.
program=$1
shift
"$program" "$@" || exit
while [ $# -gt 0 ]; do
  [ "$1" = --output ] && output=$2
  shift
done
[ -n "${output:-}" ] && sed -i '$ s/.*/12345/' "$output"
exit 0
