#!/usr/bin/env bash
# The Python package's tests: installs the package from this checkout into
# a virtual environment (BUILD/python-venv, kept between runs) with its test
# extras, then runs pytest on python/tests and networkx's own tests of the
# functions irgl answers as its backend (python/tests/networkx/run.sh).
# Exits non-zero when the install or a test fails.
#
#   python/test.sh [BUILD_DIR] [PYTEST_ARGS...]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build}
shift $(( $# > 0 ? 1 : 0 ))
venv=$build/python-venv
python=${PYTHON:-python3}
if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q --upgrade pip scikit-build-core nanobind
CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)} \
  "$venv/bin/python" -m pip install -q --no-build-isolation "$root[test]"
(cd "$root/python/tests" && "$venv/bin/python" -m pytest -q "$@" .)
"$root/python/tests/networkx/run.sh" "$venv/bin/python"
