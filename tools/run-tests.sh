#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds, then runs the unit
# tests, the GPU tests (reported as skipped when there is no GPU) and the lit
# tests through ctest, then the Python package's (python/test.sh: pip install
# into a virtual environment, pytest). Exits non-zero when any test fails.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${IRGL_BUILD_DIR:-$root/build}
"$root/tools/setup.sh"
"$root/tools/build.sh"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" "$@"
"$root/python/test.sh" "$build"
