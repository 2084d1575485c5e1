#!/usr/bin/env bash
# The GAP Benchmark Suite (gapbs, github.com/sbeamer/gapbs) as a CPU column
# beside irglc: builds its kernels, and runs one of them on the graph and
# source an irglc program is given, after irglc's own loader (irgl-graph
# convert) has written the graph, so that both see the same vertex ids,
# edges and weights.
#
#   tools/bench/gap.sh build [--force] [--link static|portable] SRC_DIR OUT_DIR
#   tools/bench/gap.sh run --gap DIR --app bfs|sssp|cc|pr --graph GRAPH [options]
#
# `gap.sh help` describes the options. GAP's kernels run the graph as stored
# (directed unless the file is symmetric), like irglc's bfs, sssp and pr;
# GAP itself always drops self loops and repeated edges, which changes no
# answer of these kernels.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
prog=gap.sh
KERNELS=(bfs sssp cc pr)
TUNED_DELTAS=16,64,1024  # --delta tuned (the usage says why)
work=''  # the temporary directory (removed on exit)
TOOLS=(bfs sssp cc pr converter)

usage() {
  cat << 'EOF'
usage: gap.sh build [--force] [--link static|portable] SRC_DIR OUT_DIR
       gap.sh run --gap DIR --app bfs|sssp|cc|pr --graph GRAPH [options] [-- GAP_ARGS...]

build: compiles GAP's bfs, sssp, cc, pr and converter from the gapbs source
tree SRC_DIR (left unchanged) into OUT_DIR, with GAP's flags
(-std=c++11 -O3 -Wall -fopenmp; $CXX, default g++).
  --force        build into a non-empty OUT_DIR
  --link static  fully static binaries (default)
  --link portable  static libstdc++/libgcc, libgomp.so.1 copied into OUT_DIR
                 and found through the rpath $ORIGIN

run: converts GRAPH with irglc's `irgl-graph convert` (ids, edges and weights
as irglc loads them), has GAP's converter serialize it, runs the GAP kernel
with -n TRIALS [-r SOURCE] -v and prints one line:
  gap APP GRAPHNAME: median X ms of N trials (threads T)
(or `gap APP: skipped (no GAP build in DIR)` and exit status 0 when DIR has
no GAP build of APP). Fails when GAP's verification fails.
  --gap DIR           the GAP binaries (gap.sh build's OUT_DIR)
  --app APP           bfs, sssp, cc or pr
  --graph GRAPH       a graph file or generator spec irgl-graph reads
  --source N          source vertex (bfs, sssp; default 0), irglc's numbering
  --weights SPEC      edge weights for sssp, as irglc's --weights
                      (hash[:MAX[:SEED]], unit, file; default file: the
                      file's own weights, which must be integers)
  --trials N          timed trials (default 7)
  --threads N         OpenMP threads (default $OMP_NUM_THREADS, else nproc)
  --irgl-graph PATH   irglc's irgl-graph (default $IRGL_GRAPH, else
                      build-dev/bin/irgl-graph, else irgl-graph next to DIR
                      or on PATH)
  --graph-opt OPT     one more irgl-graph convert option (repeatable), e.g.
                      --graph-opt=--renumber
  --symmetrize        build the graph undirected (GAP's -s; irglc's cc runs
                      with --symmetrize; GAP's cc finds the weak components
                      of a directed graph without it)
  --delta D[,D...]    sssp's delta (GAP's -d; default 1, GAP's default); with
                      several, each is run and the fastest median printed
                      (GAP's rules tune delta per graph; the pick goes to
                      standard error); 'tuned' is 16,64,1024, the set
                      irglc's benchmarks give GAP (delta 1 on weights up to
                      100 or road lengths is 10-100x slower)
  --verify all|once|none  GAP's -v on every trial (default), on one extra
                      untimed run before the timed ones, or not at all
  --name NAME         GRAPHNAME in the output line (default from GRAPH)
  --log FILE          write GAP's own output there
  --cache-dir DIR     keep the serialized graphs there and reuse them
  GAP_ARGS            more options for the GAP kernel (pr's default:
                      -i 1000 -t 1e-6, irglc's pr limits)
EOF
}

die() { echo "$prog: error: $*" >&2; exit 2; }
fail() { echo "$prog: $*" >&2; exit 1; }
is_uint() { [[ $1 =~ ^[0-9]+$ ]]; }

# ---------------------------------------------------------------------------
# build
# ---------------------------------------------------------------------------
cmd_build() {
  local force=0 link=static args=()
  while [ $# -gt 0 ]; do
    case $1 in
      --force) force=1; shift ;;
      --link) [ $# -ge 2 ] || die "--link needs a value"; link=$2; shift 2 ;;
      --link=*) link=${1#--link=}; shift ;;
      -h|--help) usage; exit 0 ;;
      -*) die "unknown build option $1 (gap.sh help)" ;;
      *) args+=("$1"); shift ;;
    esac
  done
  [ ${#args[@]} -eq 2 ] || die "build needs SRC_DIR and OUT_DIR (gap.sh help)"
  case $link in static|portable) ;; *) die "--link must be static or portable, not '$link'" ;; esac
  local src=${args[0]} out=${args[1]} cxx=${CXX:-g++} tool
  for tool in "${TOOLS[@]}"; do
    [ -f "$src/src/$tool.cc" ] || die "$src is not a gapbs source tree (no src/$tool.cc)"
  done
  if [ -e "$out" ] && [ ! -d "$out" ]; then die "$out exists and is not a directory"; fi
  if [ -d "$out" ] && [ -n "$(ls -A "$out")" ] && [ $force = 0 ]; then
    die "$out is not empty (--force builds into it anyway)"
  fi
  mkdir -p "$out"
  out=$(cd "$out" && pwd)
  local flags=(-std=c++11 -O3 -Wall -fopenmp) link_flags=()
  if [ "$link" = static ]; then
    link_flags=(-static)
  else
    link_flags=(-static-libstdc++ -static-libgcc '-Wl,-rpath,$ORIGIN')
  fi
  # Compiled from a copy: SRC_DIR stays as it is.
  work=$(mktemp -d "${TMPDIR:-/tmp}/gap-build.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  cp -r "$src/src" "$work/src"
  for tool in "${TOOLS[@]}"; do
    echo "+ $cxx ${flags[*]} src/$tool.cc -o $out/$tool ${link_flags[*]}"
    "$cxx" "${flags[@]}" "$work/src/$tool.cc" -o "$out/$tool" "${link_flags[@]}" \
      || fail "build of $tool failed"
  done
  if [ "$link" = portable ]; then
    local gomp
    gomp=$("$cxx" -print-file-name=libgomp.so.1)
    [ -f "$gomp" ] || fail "no libgomp.so.1 found by $cxx"
    cp -L "$gomp" "$out/libgomp.so.1"
  fi
  local commit=unknown
  if git -C "$src" rev-parse HEAD > /dev/null 2>&1; then commit=$(git -C "$src" rev-parse HEAD); fi
  [ -f "$src/GAPBS_COMMIT" ] && commit=$(cat "$src/GAPBS_COMMIT")
  {
    echo "gapbs commit: $commit"
    echo "source: $(cd "$src" && pwd)"
    echo "compiler: $("$cxx" --version | head -1)"
    echo "command: $cxx ${flags[*]} src/TOOL.cc -o TOOL ${link_flags[*]}"
    echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -m)"
  } > "$out/BUILD-INFO"
  echo "GAP built in $out: ${TOOLS[*]}"
}

# ---------------------------------------------------------------------------
# run
# ---------------------------------------------------------------------------
graph_name() {
  local spec=$1 stem
  if [ -e "$spec" ]; then
    stem=$(basename "$spec")
    stem=${stem%.xz}; stem=${stem%.gz}
    echo "${stem%%.*}"
  else
    echo "${spec/rmat:scale=/rmat}"
  fi
}

find_irgl_graph() {
  local gap=$1 candidate
  for candidate in "${IRGL_GRAPH:-}" "$root/build-dev/bin/irgl-graph" "$gap/../irgl-graph" \
                   "$gap/irgl-graph" "$(command -v irgl-graph || true)"; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then echo "$candidate"; return; fi
  done
  return 1
}

cmd_run() {
  local gap='' app='' graph='' source='' weights='' trials=7 threads='' irgl_graph='' symmetrize=0
  local delta='' verify=all name='' log='' cache='' graph_opts=() gap_args=() have_gap_args=0
  need() { [ "$2" -ge 2 ] || die "$1 needs a value"; }
  while [ $# -gt 0 ]; do
    case $1 in
      --*=*) local opt=${1%%=*} val=${1#*=}; shift; set -- "$opt" "$val" "$@"; continue ;;
    esac
    case $1 in
      --gap) need "$1" $#; gap=$2; shift 2 ;;
      --app) need "$1" $#; app=$2; shift 2 ;;
      --graph) need "$1" $#; graph=$2; shift 2 ;;
      --source) need "$1" $#; source=$2; shift 2 ;;
      --weights) need "$1" $#; weights=$2; shift 2 ;;
      --trials) need "$1" $#; trials=$2; shift 2 ;;
      --threads) need "$1" $#; threads=$2; shift 2 ;;
      --irgl-graph) need "$1" $#; irgl_graph=$2; shift 2 ;;
      --graph-opt) need "$1" $#; graph_opts+=("$2"); shift 2 ;;
      --symmetrize) symmetrize=1; shift ;;
      --delta) need "$1" $#; delta=$2; shift 2 ;;
      --verify) need "$1" $#; verify=$2; shift 2 ;;
      --name) need "$1" $#; name=$2; shift 2 ;;
      --log) need "$1" $#; log=$2; shift 2 ;;
      --cache-dir) need "$1" $#; cache=$2; shift 2 ;;
      -h|--help) usage; exit 0 ;;
      --) shift; gap_args=("$@"); have_gap_args=1; break ;;
      *) die "unknown run option '$1' (gap.sh help)" ;;
    esac
  done
  [ -n "$app" ] || die "run needs --app (bfs, sssp, cc or pr)"
  case " ${KERNELS[*]} " in *" $app "*) ;; *) die "unknown --app '$app' (bfs, sssp, cc or pr)" ;; esac
  [ -n "$gap" ] || die "run needs --gap DIR"
  [ -n "$graph" ] || die "run needs --graph GRAPH"
  is_uint "$trials" && [ "$trials" -ge 1 ] || die "--trials must be a positive integer, not '$trials'"
  if [ -n "$threads" ]; then
    is_uint "$threads" && [ "$threads" -ge 1 ] || die "--threads must be a positive integer, not '$threads'"
  fi
  case $verify in all|once|none) ;; *) die "--verify must be all, once or none, not '$verify'" ;; esac
  case $app in
    bfs|sssp) source=${source:-0}
              is_uint "$source" || die "--source must be a vertex id (0, 1, ...), not '$source'" ;;
    *) [ -z "$source" ] || die "$app takes no --source" ;;
  esac
  if [ -n "$weights" ] && [ "$app" != sssp ]; then die "--weights is for sssp only"; fi
  if [ -n "$delta" ]; then
    [ "$app" = sssp ] || die "--delta is for sssp only"
    [ "$delta" = tuned ] && delta=$TUNED_DELTAS
    [[ $delta =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die "--delta must be positive integers (D or D,D,...), not '$delta'"
  fi
  name=${name:-$(graph_name "$graph")}

  # No GAP build: a clean skip, so that a benchmark runs on without GAP.
  if [ ! -x "$gap/$app" ]; then
    echo "gap $app: skipped (no GAP build in $gap)"
    exit 0
  fi
  if [ -z "$irgl_graph" ]; then
    irgl_graph=$(find_irgl_graph "$gap") || fail "no irgl-graph found (give --irgl-graph PATH or set IRGL_GRAPH)"
  fi
  [ -x "$irgl_graph" ] || fail "--irgl-graph $irgl_graph is not an executable"
  if [ -z "$threads" ]; then threads=${OMP_NUM_THREADS:-$(nproc)}; fi

  work=$(mktemp -d "${TMPDIR:-/tmp}/gap-run.XXXXXX")
  trap 'rm -rf "$work"' EXIT

  # The edge list irglc's loader makes of GRAPH, weighted for sssp.
  local weighted=0 ext=el sg_ext=sg convert_opts=(--quiet --output-format edgelist)
  if [ "$app" = sssp ]; then
    weighted=1 ext=wel sg_ext=wsg
    convert_opts+=(--weights "${weights:-file}")
  else
    convert_opts+=(--weights none)
  fi
  convert_opts+=("${graph_opts[@]}")
  local sg=
  if [ -n "$cache" ]; then
    mkdir -p "$cache"
    local key
    key=$(printf '%s\n' "$(readlink -f "$graph" 2>/dev/null || echo "$graph")" \
            "$(stat -c '%s %Y' "$graph" 2>/dev/null || true)" "${convert_opts[*]}" "$symmetrize" \
          | sha1sum | cut -c1-12)
    sg=$cache/$name-$key.$sg_ext
  fi
  [ -n "$sg" ] || sg=$work/graph.$sg_ext
  if [ ! -f "$sg" ] || [ ! -f "$sg.vertices" ]; then
    # irgl-graph writes "# Nodes: N Edges: M" then one edge a line. GAP's
    # reader stops at the comment, and takes max id + 1 as the vertex
    # count: the comment goes, and a self loop on vertex N-1 (GAP drops
    # self loops) keeps the vertices without edges at the end. The edges go
    # through a pipe straight into GAP's converter.
    mkfifo "$work/graph.$ext"
    (
      set -o pipefail
      "$irgl_graph" convert "${convert_opts[@]}" "$graph" - 2> "$work/irgl-graph.log" |
        awk -v weighted=$weighted -v report="$work/graph.info" '
          NR == 1 && /^# Nodes: [0-9]+ Edges: [0-9]+/ { n = $3; m = $5; next }
          /^#/ { next }
          weighted && NF < 3 { print "the graph has no edge weights (give --weights, e.g. hash:100 as irglc'"'"'s sssp gets)" > report; bad = 1; exit 3 }
          weighted && $3 !~ /^[0-9]+$/ { print "weight " $3 " is not a non-negative integer (GAP'"'"'s sssp has int32 weights)" > report; bad = 1; exit 3 }
          { edges++; print }
          END {
            if (bad) exit 3
            if (n == "") { print "no \"# Nodes:\" line from irgl-graph" > report; exit 4 }
            if (edges != m) { print "got " edges " edges of " m > report; exit 5 }
            if (n > 0) print (n - 1), (n - 1), (weighted ? 1 : "")
            print n, m > report
          }'
    ) > "$work/graph.$ext" &
    local writer=$! conv_flags=()
    [ $symmetrize = 1 ] && conv_flags+=(-s)
    [ $weighted = 1 ] && conv_flags+=(-w)
    local conv_status=0 writer_status=0
    "$gap/converter" "${conv_flags[@]}" -f "$work/graph.$ext" -b "$sg.part" > "$work/converter.log" 2>&1 \
      || conv_status=$?
    # A converter that failed may have left the writer waiting for a reader
    # (it has no children then) or writing into a pipe nobody reads (they
    # end on SIGPIPE).
    if [ $conv_status != 0 ]; then kill "$writer" 2> /dev/null || true; fi
    wait "$writer" || writer_status=$?
    # 141, 143: SIGPIPE, SIGTERM after the converter stopped reading.
    case $writer_status in
      0) ;;
      141|143) [ $conv_status != 0 ] || fail "irgl-graph convert of $graph was stopped" ;;
      *)
        echo "$prog: cannot convert $graph for GAP:" >&2
        grep -i error "$work/irgl-graph.log" | tail -3 >&2 || cat "$work/graph.info" >&2 2> /dev/null || true
        exit 1 ;;
    esac
    if [ $conv_status != 0 ]; then
      echo "$prog: GAP's converter failed (exit $conv_status):" >&2
      tail -5 "$work/converter.log" >&2
      exit 1
    fi
    mv "$sg.part" "$sg"
    cut -d' ' -f1 "$work/graph.info" > "$sg.vertices"
  fi
  local vertices
  vertices=$(cat "$sg.vertices")
  if [ -n "$source" ] && [ "$source" -ge "$vertices" ]; then
    fail "--source $source is not a vertex of $graph ($vertices vertices)"
  fi

  # -a: GAP's summary of the last trial's answer (untimed) goes to the log.
  local cmd=("$gap/$app" -f "$sg" -a)
  [ -n "$source" ] && cmd+=(-r "$source")
  [ "$app" = pr ] && [ $have_gap_args = 0 ] && cmd+=(-i 1000 -t 1e-6)
  cmd+=("${gap_args[@]}")
  : > "$work/all.log"
  local d best='' best_delta='' median
  for d in ${delta//,/ }; do
    median=$(run_kernel "$d") || { [ -z "$log" ] || cp "$work/all.log" "$log"; exit 1; }
    if [ -z "$best" ] || awk -v a="$median" -v b="$best" 'BEGIN { exit !(a < b) }'; then
      best=$median best_delta=$d
    fi
  done
  if [ -z "$delta" ]; then
    median=$(run_kernel "") || { [ -z "$log" ] || cp "$work/all.log" "$log"; exit 1; }
    best=$median
  fi
  [ -z "$log" ] || cp "$work/all.log" "$log"
  if [ "$delta" != "$best_delta" ]; then
    echo "$prog: sssp on $name: delta $best_delta was the fastest of $delta" >&2
  fi
  printf 'gap %s %s: median %.2f ms of %d trials (threads %d)\n' "$app" "$name" "$best" "$trials" "$threads"
}

# run_kernel DELTA: runs the GAP kernel (cmd, with -d DELTA unless empty),
# checks its verification, appends its output to the log and prints the
# median trial time in ms.
run_kernel() {
  local kernel=("${cmd[@]}") output=$work/gap.log status=0
  [ -z "$1" ] || kernel+=(-d "$1")
  : > "$output"
  if [ "$verify" = once ]; then
    echo "\$ OMP_NUM_THREADS=$threads ${kernel[*]} -n 1 -v" >> "$output"
    OMP_NUM_THREADS=$threads "${kernel[@]}" -n 1 -v >> "$output" 2>&1 || status=$?
  fi
  if [ $status = 0 ]; then
    local timed=("${kernel[@]}" -n "$trials")
    [ "$verify" = all ] && timed+=(-v)
    echo "\$ OMP_NUM_THREADS=$threads ${timed[*]}" >> "$output"
    OMP_NUM_THREADS=$threads "${timed[@]}" >> "$output" 2>&1 || status=$?
  fi
  cat "$output" >> "$work/all.log"
  if [ $status != 0 ]; then
    echo "$prog: GAP's $app failed (exit $status) on $graph:" >&2
    tail -5 "$output" >&2
    return 1
  fi
  local checks passes
  checks=$(grep -c '^Verification:' "$output" || true)
  passes=$(grep -c '^Verification: *PASS$' "$output" || true)
  if [ "$verify" != none ] && { [ "$checks" = 0 ] || [ "$checks" != "$passes" ]; }; then
    echo "$prog: GAP's verification of $app on $graph failed ($passes of $checks passed):" >&2
    grep -v '^\(Trial\|Verification\) Time' "$output" | grep -B3 '^Verification: *FAIL' | head -12 >&2 || true
    return 1
  fi
  local times count
  times=$(sed -n 's/^Trial Time: *\([0-9.]*\)$/\1/p' "$output" | tail -n "$trials")
  count=$(printf '%s\n' "$times" | grep -c . || true)
  if [ "$count" != "$trials" ]; then
    echo "$prog: GAP's $app printed $count trial times, not $trials (see --log)" >&2
    return 1
  fi
  printf '%s\n' "$times" | sort -g | awk '
    { t[NR] = $1 * 1000 }
    END { printf "%.3f\n", NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'
}

case ${1:-} in
  build) shift; cmd_build "$@" ;;
  run) shift; cmd_run "$@" ;;
  help|-h|--help) usage ;;
  "") usage >&2; exit 2 ;;
  *) die "unknown command '$1' (build, run or help)" ;;
esac
