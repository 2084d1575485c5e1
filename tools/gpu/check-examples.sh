#!/usr/bin/env bash
# Checks every example program, built with every schedule given, on every
# graph: the sequential CPU build of each program computes a reference answer
# that the independent checker (irgl-check) verifies; every GPU build's answer
# must then equal it (integer results, jaccard, sssp_real, louvain over unit
# weights) or pass the checker and agree with it within tolerance (pagerank,
# spmv, bc). Prints one line per GPU run and a summary; exits non-zero when
# any check fails.
#
#   tools/gpu/check-examples.sh BIN_DIR DATASETS_DIR [SUFFIX...]
#
# BIN_DIR holds <app>-cpu, <app>-<SUFFIX> and irgl-check; SUFFIX defaults to
# "cuda" (e.g. cuda-twc cuda-alb). A SUFFIX may add program options after
# '@' signs: cuda-alb@outline=graph runs <app>-cuda-alb --outline graph.
# Environment: APPS (default: all fifteen examples), GRAPHS (an extended regular
# expression: only the real graphs whose path matches; default all),
# EXTRA_GRAPHS (generator specs with a ':' kind suffix, e.g. "rmat:scale=20:"),
# JOBS (parallel runs, default 8), WORK_DIR, RUNS (timed runs, default 1),
# LAUNCHER (a command the GPU builds run under, e.g. "tools/irgl-launch -n 2"
# for the multi-GPU builds <app>-cuda-parts).
set -u
bin=$(cd "$1" && pwd)
data=$(cd "$2" && pwd)
shift 2
suffixes=("${@:-cuda}")
work=${WORK_DIR:-$(mktemp -d)}
mkdir -p "$work"
export IRGL_CACHE_DIR=${IRGL_CACHE_DIR:-$work/cache}
export IRGL_NO_PROGRESS=1
mkdir -p "$IRGL_CACHE_DIR"
jobs=${JOBS:-8}
runs=${RUNS:-1}

# Graphs: the real graphs of tools/gpu/datasets.txt, then EXTRA_GRAPHS, each
# as PATH:KIND, KIND the weights it holds: i (integers), r (reals) or nothing.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
graphs=(
  $(awk '!/^#/ && NF == 2 { print $1 ":" ($2 == "-" ? "" : $2) }' "$here/datasets.txt" |
    grep -E "${GRAPHS:-.}")
  ${EXTRA_GRAPHS:-}
)
apps=(${APPS:-bfs sssp sssp_real cc pr kcore tc tc_per_vertex spmv mis coloring scc bc jaccard louvain})

# The options an example needs (the checker gets the same), from
# tools/gpu/app-options.txt, with vertex 1 as the source.
options_for() {
  local app=$1 weighted=${2:--}
  awk -v app="$app" -v w="$weighted" '!/^#/ && $1 == app && ($2 == "*" || $2 == w) {
      line = ""; for (i = 3; i <= NF; i++) line = line (i > 3 ? " " : "") $i
      gsub(/\{source\}/, "1", line); print line; exit }' "$here/app-options.txt"
}

graph_path() {
  case $1 in rmat:*|grid:*|uniform:*) echo "$1" ;; *) echo "$data/$1" ;; esac
}
tag_of() { echo "$1" | tr '/:=,@' '_____'; }

# Phase 1: reference answers from the CPU builds, each verified by the checker.
reference() {
  local app=$1 entry=$2
  local graph=${entry%:*} weighted=${entry##*:}
  local path opts out
  path=$(graph_path "$graph")
  opts=$(options_for "$app" "$weighted")
  out=$work/$app-$(tag_of "$graph").cpu.out
  if ! "$bin/$app-cpu" "$path" $opts --output "$out" --force > "$out.log" 2>&1; then
    echo "REFERENCE-FAILED $app $graph: $(tail -1 "$out.log")"
  elif ! "$bin/irgl-check" --algorithm "$app" $opts "$path" "$out" > "$out.check" 2>&1; then
    echo "REFERENCE-WRONG $app $graph: $(tail -1 "$out.check")"
  fi
}

# Compares two result files: exactly for integer results and jaccard; for
# pagerank each value within 1e-4; for spmv the largest difference within
# 1e-5 of the largest |y| (the GPU contracts a*x+y into FMAs, the CPU build
# may not); for bc each value within 1e-9 of max(1, |value|) (dependencies
# summed in another order).
same_answer() {
  local app=$1 a=$2 b=$3
  case $app in
    bc)
      python3 - "$a" "$b" <<'PY'
import sys
def values(path):
    return [float(line) for line in open(path) if not line.startswith("#")]
a, b = values(sys.argv[1]), values(sys.argv[2])
if len(a) != len(b):
    sys.exit("different lengths")
worst = max((abs(x - y) / max(1.0, abs(y)) for x, y in zip(a, b)), default=0.0)
sys.exit(0 if worst <= 1e-9 else "largest relative difference %g" % worst)
PY
      ;;
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

# Phase 2: one GPU run, compared with the reference.
gpu_run() {
  local app=$1 entry=$2 suffix=$3
  local graph=${entry%:*} weighted=${entry##*:}
  local path opts reference out ms verdict
  path=$(graph_path "$graph")
  opts=$(options_for "$app" "$weighted")
  reference=$work/$app-$(tag_of "$graph").cpu.out
  out=$work/$app-$(tag_of "$graph").$(tag_of "$suffix").out
  local program=${suffix%%@*} extra=
  [ "$program" = "$suffix" ] || extra=$(echo "${suffix#*@}" | sed 's/^/--/; s/@/ --/g; s/=/ /g')
  [ -s "$reference" ] || { printf '%-6s %-32s %-40s SKIPPED (no reference)\n' "$app" "$suffix" "$graph"; return; }
  if ! ${LAUNCHER:-} "$bin/$app-$program" "$path" $opts $extra --runs "$runs" --output "$out" --force > "$out.log" 2>&1; then
    printf '%-6s %-32s %-40s FAILED: %s\n' "$app" "$suffix" "$graph" "$(tail -1 "$out.log")"
    return
  fi
  ms=$(sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p' "$out.log")
  verdict=PASS
  case $app in
    pr|spmv|bc|sssp_real)
      "$bin/irgl-check" --algorithm "$app" $opts "$path" "$out" > "$out.check" 2>&1 ||
        verdict="WRONG (checker: $(tail -1 "$out.check"))"
      ;;
  esac
  if [ "$verdict" = PASS ]; then
    why=$(same_answer "$app" "$out" "$reference" 2>&1) || verdict="DIFFERS from the CPU build ${why}"
  fi
  printf '%-6s %-32s %-40s %10s ms  %s\n' "$app" "$suffix" "$graph" "$ms" "$verdict"
}

export -f reference same_answer gpu_run options_for graph_path tag_of
export bin data work runs here

for app in "${apps[@]}"; do
  for entry in "${graphs[@]}"; do
    graph=${entry%:*}
    case $graph in rmat:*|grid:*|uniform:*) ;; *) [ -e "$data/$graph" ] || continue ;; esac
    printf '%s\0%s\0' "$app" "$entry"
  done
done > "$work/references"
xargs -0 -n 2 -P "$(nproc)" bash -c 'reference "$0" "$1"' < "$work/references" | tee "$work/reference.log"

for suffix in "${suffixes[@]}"; do
  tr '\0' '\n' < "$work/references" | paste - - | while IFS=$'\t' read -r app entry; do
    printf '%s\0%s\0%s\0' "$app" "$entry" "$suffix"
  done
done > "$work/runs"
printf '%-6s %-32s %-40s %13s  %s\n' app build graph time verdict
xargs -0 -n 3 -P "$jobs" bash -c 'gpu_run "$0" "$1" "$2"' < "$work/runs" | tee "$work/runs.log"

references=$(tr '\0' '\n' < "$work/references" | paste - - | wc -l)
bad_references=$(grep -c "^REFERENCE" "$work/reference.log")
total=$(wc -l < "$work/runs.log")
passed=$(grep -c " PASS$" "$work/runs.log")
echo "check-examples: $references references ($bad_references bad), $total GPU runs, $passed passed, $((total - passed)) not"
[ "$bad_references" -eq 0 ] && [ "$passed" -eq "$total" ]
