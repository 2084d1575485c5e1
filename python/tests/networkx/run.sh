#!/usr/bin/env bash
# networkx's own tests of the functions irgl answers, run with irgl as the
# backend (networkx converts each test's graphs to irgl; functions irgl does
# not answer fall back to networkx). Prints how many tests irgl answered
# and how they ended (irgl_calls.py). Exits non-zero when a test fails.
#
#   python/tests/networkx/run.sh [PYTHON] [PYTEST_ARGS...]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
python=${1:-python3}
shift $(( $# > 0 ? 1 : 0 ))
nx=$("$python" -c "import networkx, os; print(os.path.dirname(networkx.__file__))")
tests=(
  algorithms/shortest_paths/tests/test_unweighted.py
  algorithms/shortest_paths/tests/test_weighted.py
  algorithms/components/tests/test_connected.py
  algorithms/components/tests/test_strongly_connected.py
  algorithms/tests/test_mis.py
  algorithms/link_analysis/tests/test_pagerank.py
  algorithms/tests/test_core.py
  algorithms/traversal/tests/test_bfs.py
  algorithms/tests/test_cluster.py
  algorithms/centrality/tests/test_betweenness_centrality.py
  algorithms/tests/test_link_prediction.py
  algorithms/community/tests/test_louvain.py
  algorithms/coloring/tests/test_coloring.py
)
cd "$here"
PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}" exec "$python" -m pytest -q -p no:cacheprovider \
  -p irgl_calls --rootdir="$nx" --confcutdir="$nx" --backend irgl --fallback-to-nx \
  -W "ignore::UserWarning" "$@" "${tests[@]/#/$nx/}"
