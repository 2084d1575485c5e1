#!/bin/sh
# Stands in for an example program (APP-cuda, APP-tasks-cuda,
# cc-afforest-cuda) and irgl-check: writes the -o file, prints the median
# line with the time in $FAKE_MS (1.5 by default), or fails when its name
# is in $FAKE_FAIL.
case " ${FAKE_FAIL:-} " in *" $(basename "$0") "*) echo "broken"; exit 1 ;; esac
out=
while [ $# -gt 0 ]; do case $1 in -o) out=$2; shift ;; esac; shift; done
[ -n "$out" ] && echo answer > "$out"
echo "time: median ${FAKE_MS:-1.5} ms of 3 runs"
