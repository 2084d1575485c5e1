#!/usr/bin/env bash
# Stand-in for a build whose runs are too short to time: runs the CPU build
# given as $1 and reports every run as 0 ms, in its run lines and in its
# --json report (what programs printed for a tiny graph before they printed
# six decimals below 0.1 ms).
program=$1
shift
"$program" "$@" | sed 's/^run \([0-9]*\): .* ms$/run \1: 0.000 ms/'
status=${PIPESTATUS[0]}
report=
while [ $# -gt 0 ]; do
  [ "$1" = --json ] && report=$2
  shift
done
if [ -n "$report" ] && [ -f "$report" ]; then
  python3 - "$report" <<'PY'
import json, sys
with open(sys.argv[1]) as handle:
    report = json.load(handle)
for run in report["runs"]:
    run["ms"] = 0.0
with open(sys.argv[1], "w") as handle:
    json.dump(report, handle)
PY
fi
exit "$status"
