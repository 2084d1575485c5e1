#!/usr/bin/env bash
# Stand-in for a build whose runs are too short to time: runs the CPU build
# given as $1 and reports every run as 0.000 ms (what programs printed for a
# tiny graph before they printed six decimals below 0.1 ms).
program=$1
shift
"$program" "$@" | sed 's/^run \([0-9]*\): .* ms$/run \1: 0.000 ms/'
exit "${PIPESTATUS[0]}"
