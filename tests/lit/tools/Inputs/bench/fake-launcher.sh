#!/usr/bin/env bash
# Stand-in for tools/irgl-launch: logs the GPU count and the program's name
# to $FAKE_LAUNCH_LOG and runs the command once (the stand-in builds are CPU
# programs).
[ "$1" = -n ] || { echo "fake-launcher: expected -n" >&2; exit 2; }
echo "launch -n $2 $(basename "$3")" >> "$FAKE_LAUNCH_LOG"
shift 2
exec "$@"
