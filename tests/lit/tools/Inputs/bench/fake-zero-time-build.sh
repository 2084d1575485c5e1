#!/usr/bin/env bash
# Stand-in for a build whose runs are too short to time: runs the CPU build
# given as $1 and reports every run as 0 ms, in its run lines and in its
# --json report (what programs printed for a tiny graph before they printed
# six decimals below 0.1 ms).
exec "$(dirname "$0")/fake-timed-build.sh" zero 0.000 0.000 "$@"
