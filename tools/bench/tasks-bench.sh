#!/usr/bin/env bash
# Asynchronous graph algorithms against bulk-synchronous rounds and GAP:
# bfs, sssp, cc and kcore as task programs (lang-examples/tasks, every
# push a task that runs as soon as a thread is free) under the task-pool
# schemes, beside the round-based examples (their default schedule and
# outlining) and, where a GAP build is given, the GAP Benchmark Suite on
# the host's cores (tools/bench/gap.sh). Every task program's answer is
# checked by irgl-check. Prints a Markdown table: medians of RUNS runs in
# ms, loading excluded, and the task programs' best against the rounds and
# against GAP.
#
#   tools/bench/tasks-bench.sh BIN_DIR DATASETS_DIR [GAP_DIR]
#
# BIN_DIR holds APP-cuda, APP-tasks-cuda, irgl-check and irgl-graph, and
# optionally cc-afforest-cuda (a column of its own for cc).
# Environment: APPS (default "bfs sssp cc kcore"), GRAPHS (entries
# PATH@WEIGHTS@SOURCE: a file under DATASETS_DIR or a generator spec, its
# weights i or -, and the source vertex), CONFIGS (task-program option sets,
# ';'-separated), RUNS (default 7), SLOTS (--task-slots, default 65536).
set -u
bin=$(cd "$1" && pwd)
data=$(cd "$2" && pwd)
gap=${3:-}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
runs=${RUNS:-7}
apps=(${APPS:-bfs sssp cc kcore})
graphs=(${GRAPHS:-road/luxembourg_osm.mtx.xz@-@0 road/usroads.mtx.xz@-@1000
  road/moscow_roads.txt.xz@-@2094 road/moscow_roads.gr.xz@i@2094
  powerlaw/cnr-2000.txt.xz@-@217849 grid:1000x1000@-@0 rmat:20@-@0})
IFS=';' read -r -a configs <<< "${CONFIGS:-work-stealing;work-stealing --task-chain 8;static}"
export IRGL_NO_PROGRESS=1 IRGL_CACHE_DIR=${IRGL_CACHE_DIR:-/tmp/irgl-cache}
mkdir -p "$IRGL_CACHE_DIR"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The options an app needs on a graph (tools/gpu/app-options.txt).
options_for() {
  awk -v app="$1" -v w="$2" -v s="$3" '!/^#/ && $1 == app && ($2 == "*" || $2 == w) {
      line = ""; for (i = 3; i <= NF; i++) line = line (i > 3 ? " " : "") $i
      gsub(/\{source\}/, s, line); print line; exit }' "$here/../gpu/app-options.txt"
}
median_of() { sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p' "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else printf "-" }'; }

# The GAP column: bfs, sssp (delta tuned over a range) and cc (on the
# symmetrized graph, as irglc's cc runs); kcore has no GAP kernel.
gap_time() {
  local app=$1 path=$2 weights=$3 source=$4 extra=()
  [ -n "$gap" ] || { echo "-"; return; }
  case $app in
    bfs) extra=(--source "$source") ;;
    sssp) extra=(--source "$source" --delta tuned)
          [ "$weights" = i ] || extra+=(--weights hash:100) ;;
    cc) extra=(--symmetrize) ;;
    *) echo "-"; return ;;
  esac
  "$here/gap.sh" run --gap "$gap" --app "$app" --graph "$path" --trials "$runs" \
    --irgl-graph "$bin/irgl-graph" --cache-dir "$work/gap-cache" "${extra[@]}" 2> "$work/gap.err" |
    sed -n 's/.*: median \([0-9.]*\) ms.*/\1/p'
}

# checked_time LABEL APP PATH OPTS PROGRAM [OPTION...]: PROGRAM's median
# time on PATH when irgl-check passes its answer (APP's checker), else
# FAILED (and why, on standard error).
checked_time() {
  local label=$1 app=$2 path=$3 opts=$4 program=$5
  shift 5
  rm -f "$work/check"  # no reason left from a run before
  if "$program" "$path" $opts "$@" --runs "$runs" --warmup 2 -o "$work/checked.out" --force \
       > "$work/checked.log" 2>&1 &&
     "$bin/irgl-check" --algorithm "$app" $opts "$path" "$work/checked.out" > "$work/check" 2>&1; then
    median_of "$work/checked.log"
  else
    echo "FAILED"
    echo "FAILED: $label: $(tail -1 "$work/checked.log") $(tail -1 "$work/check" 2> /dev/null)" >&2
  fi
}

# The union-find column: cc by Afforest (cc-afforest-cuda, GAP's algorithm
# in the language), checked like the task programs; '-' for other apps or
# without the build.
union_find_time() {
  local app=$1 path=$2 opts=$3
  [ "$app" = cc ] && [ -x "$bin/cc-afforest-cuda" ] || { echo "-"; return; }
  checked_time "cc-afforest-cuda $path" cc "$path" "$opts" "$bin/cc-afforest-cuda"
}

header="| app | graph | rounds |"
rule="|---|---|---|"
for config in "${configs[@]}"; do header="$header tasks $config |"; rule="$rule---|"; done
echo "$header union-find | GAP | rounds / best tasks | GAP / best tasks |"
echo "$rule---|---|---|---|"
status=0
for app in "${apps[@]}"; do
  for entry in "${graphs[@]}"; do
    IFS=@ read -r graph weights source <<< "$entry"
    case $graph in *:*) path=$graph ;; *) path=$data/$graph ;; esac
    name=$(basename "$graph" | sed 's/\.xz$//')
    opts=$(options_for "$app" "$weights" "$source")
    "$bin/$app-cuda" "$path" $opts --runs "$runs" --warmup 2 -o "$work/rounds.out" --force \
      > "$work/rounds.log" 2>&1
    rounds=$(median_of "$work/rounds.log")
    row="| $app | $name | ${rounds:-failed} |"
    best=""
    for config in "${configs[@]}"; do
      t=$(checked_time "$app-tasks-cuda $name $config" "$app" "$path" "$opts" \
        "$bin/$app-tasks-cuda" --task-pool $config --task-slots "${SLOTS:-65536}")
      row="$row $t |"
      if [ "$t" = FAILED ]; then
        status=1
      else
        best=$(awk -v a="$t" -v b="$best" 'BEGIN { print (b == "" || a < b) ? a : b }')
      fi
    done
    g=$(gap_time "$app" "$path" "$weights" "$source")
    uf=$(union_find_time "$app" "$path" "$opts")
    [ "$uf" = FAILED ] && status=1
    echo "$row $uf | ${g:--} | $(ratio "$rounds" "$best") | $(ratio "${g:-0}" "$best") |"
  done
done
exit $status
