#!/usr/bin/env bash
# Stand-in for a GPU build with set run times: runs the CPU build given as
# $4 and reports every run as $2 ms on the first call of the build named $1
# and $3 ms on later ones (calls counted in $FAKE_TIMED_STATE/$1; without
# it, every call is a first), in its run lines and its --json report.
name=$1 first=$2 later=$3 program=$4
shift 4
ms=$first
if [ -n "${FAKE_TIMED_STATE:-}" ]; then
  state=$FAKE_TIMED_STATE/$name
  calls=$(($(cat "$state" 2> /dev/null || echo 0) + 1))
  echo "$calls" > "$state"
  [ "$calls" = 1 ] || ms=$later
fi
"$program" "$@" | sed "s/^run \([0-9]*\): .* ms$/run \1: $ms ms/"
status=${PIPESTATUS[0]}
report=
while [ $# -gt 0 ]; do
  [ "$1" = --json ] && report=$2
  shift
done
if [ -n "$report" ] && [ -f "$report" ]; then
  python3 - "$report" "$ms" <<'PY'
import json, sys
with open(sys.argv[1]) as handle:
    report = json.load(handle)
for run in report["runs"]:
    run["ms"] = float(sys.argv[2])
with open(sys.argv[1], "w") as handle:
    json.dump(report, handle)
PY
fi
exit "$status"
