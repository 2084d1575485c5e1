#!/usr/bin/env bash
# Runs every example program on every graph and checks each answer twice:
# against the independent checker (irgl-check) and against the sequential
# CPU build of the same .irgl program. Prints one line per run and a summary;
# exits non-zero when any check fails.
#
#   tools/gpu/check-examples.sh BIN_DIR DATASETS_DIR [TARGET_SUFFIX...]
#
# BIN_DIR holds <example>-cuda, <example>-cpu and irgl-check; TARGET_SUFFIX
# names the builds to test (default: cuda), e.g. "cuda" or "cuda-twc".
set -u
bin=$1
data=$2
shift 2
suffixes=("${@:-cuda}")
work=${WORK_DIR:-$(mktemp -d)}
export IRGL_CACHE_DIR=${IRGL_CACHE_DIR:-$work/cache}
export IRGL_NO_PROGRESS=1
mkdir -p "$IRGL_CACHE_DIR"

# Graphs: path relative to DATASETS_DIR (or a generator spec), then the kind
# of weights the file holds: i (integers), r (reals) or nothing.
graphs=(
  "tiny/karate.mtx.xz:" "tiny/chesapeake.mtx.xz:" "tiny/dolphins.mtx.xz:" "tiny/polbooks.mtx.xz:"
  "tiny/netscience.mtx.xz:r" "road/minnesota.mtx.xz:" "road/luxembourg_osm.mtx.xz:"
  "road/usroads.mtx.xz:" "road/moscow_roads.txt.xz:" "road/moscow_roads.gr.xz:i"
  "road/rome99.gr.xz:i" "road/monaco.wel.xz:i"
  "powerlaw/musae_git_edges.csv.xz:" "powerlaw/ego-twitter-undirected.txt.xz:"
  "powerlaw/cnr-2000.txt.xz:" "powerlaw/uk-2007-05-100000.txt.xz:"
  "spmv/west0067.mtx.xz:r" "spmv/bips98_606.mtx.xz:r" "spmv/bcsstk13.mtx.xz:r" "spmv/bcsstk16.mtx.xz:r"
  ${EXTRA_GRAPHS:-}
)
apps=(${APPS:-bfs sssp cc pr kcore tc spmv})

# The graph options an example needs (the checker gets the same).
options_for() {
  local app=$1 weighted=$2
  case $app in
    bfs) echo "--source 1" ;;
    sssp) [ "$weighted" = i ] && echo "--source 1" || echo "--source 1 --weights=hash:100" ;;
    cc) echo "--symmetrize" ;;
    pr) echo "" ;;
    kcore) echo "--simple --k 3" ;;
    tc) echo "--simple" ;;
    spmv) [ -n "$weighted" ] && echo "" || echo "--weights=unit" ;;
  esac
}

# Compares two result files: exactly for integer results; for pagerank each
# value within 1e-4; for spmv the largest difference within 1e-5 of the
# largest |y| (the GPU contracts a*x+y into FMAs, the CPU build does not, so
# rows with cancellation differ in their last bits).
same_answer() {
  local app=$1 a=$2 b=$3
  case $app in
    pr|spmv)
      python3 - "$a" "$b" "$app" <<'PY'
import sys
def values(path):
    return [float(line) for line in open(path) if not line.startswith("#")]
a, b = values(sys.argv[1]), values(sys.argv[2])
if len(a) != len(b):
    sys.exit("different lengths")
scale = 1.0 if sys.argv[3] == "pr" else max(max((abs(y) for y in b), default=1.0), 1e-30)
tolerance = 1e-4 if sys.argv[3] == "pr" else 1e-5
worst = max((abs(x - y) for x, y in zip(a, b)), default=0.0) / scale
sys.exit(0 if worst <= tolerance else "largest relative difference %g" % worst)
PY
      ;;
    *) cmp -s <(grep -v '^#' "$a") <(grep -v '^#' "$b") ;;
  esac
}

failures=0 runs=0
printf '%-6s %-10s %-40s %-10s %-8s %s\n' app build graph gpu_ms checker cpu
for entry in "${graphs[@]}"; do
  graph=${entry%%:*}
  weighted=${entry##*:}
  path=$data/$graph
  [ -e "$path" ] || case $graph in rmat:*|grid:*|uniform:*) ;; *) continue ;; esac
  [ -e "$path" ] || path=$graph
  for app in "${apps[@]}"; do
    opts=$(options_for "$app" "$weighted")
    reference=$work/$app-$(basename "$graph").cpu.out
    "$bin/$app-cpu" "$path" $opts --output "$reference" --force > "$work/cpu.log" 2>&1 ||
      { echo "$app cpu FAILED on $graph: $(tail -1 "$work/cpu.log")"; failures=$((failures + 1)); continue; }
    for suffix in "${suffixes[@]}"; do
      runs=$((runs + 1))
      result=$work/$app-$(basename "$graph").$suffix.out
      if ! "$bin/$app-$suffix" "$path" $opts --runs 3 --output "$result" --force > "$work/run.log" 2>&1; then
        printf '%-6s %-10s %-40s FAILED: %s\n' "$app" "$suffix" "$graph" "$(tail -1 "$work/run.log")"
        failures=$((failures + 1))
        continue
      fi
      ms=$(sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p' "$work/run.log")
      checker=PASS
      "$bin/irgl-check" --algorithm "$app" $opts "$path" "$result" > "$work/check.log" 2>&1 ||
        { checker=FAIL; failures=$((failures + 1)); sed 's/^/    /' "$work/check.log" | head -5; }
      cpu=same
      same_answer "$app" "$result" "$reference" || { cpu=DIFFERENT; failures=$((failures + 1)); }
      printf '%-6s %-10s %-40s %-10s %-8s %s\n' "$app" "$suffix" "$graph" "$ms" "$checker" "$cpu"
    done
  done
done
echo "check-examples: $runs runs, $failures failures"
[ $failures -eq 0 ]
