#!/usr/bin/env bash
# GPU verification on a machine with a GPU, from binaries built elsewhere.
#
#   tools/gpu/device-run.sh BIN_DIR DATASETS_DIR OUT_DIR PART...
#
# Parts:
#   unit      the GPU unit tests (irgl_gpu_runtime_tests) and the self-check
#   matrix    every example x every schedule build x every graph, against the
#             checker and the CPU builds (tools/gpu/check-examples.sh)
#   combos    every pipe example (bfs sssp cc kcore) x every build in BIN_DIR
#             (the -nocoop builds: --no-coop) x --outline off and persistent
#             on a subset of graphs; with `matrix` (--outline auto) that is
#             every schedule x outlining x cooperative conversion
#   sanitize  compute-sanitizer memcheck and racecheck of every example under
#             several schedules on karate and RMAT 12
#   load      instrumented bfs/sssp on RMAT under TWC and ALB (load reports)
#   tasks     the programs of tasks without a graph (four_in_a_row, octree,
#             md_forces)
#             under every pool scheme against their CPU builds, and the
#             sanitizers on the game tree and the octree's block tasks
#   task-graphs  bfs, sssp, cc and kcore as tasks under every pool scheme on
#             every graph, against the checker and the CPU builds
#   afforest  cc by union-find (cc-afforest-cuda) on every graph, against the
#             checker and cc-cpu, and racecheck once
#   consumer  the lang-examples/consumer program (library mode)
# Logs go to OUT_DIR; the last lines printed summarise each part.
set -u
bin=$(cd "$1" && pwd)
data=$(cd "$2" && pwd)
out=$3
shift 3
mkdir -p "$out"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export IRGL_NO_PROGRESS=1
export IRGL_CACHE_DIR=${IRGL_CACHE_DIR:-/tmp/irgl-cache}
mkdir -p "$IRGL_CACHE_DIR"
summary=()
note() { summary+=("$*"); echo "== $*"; }
# The builds in BIN_DIR but the instrumented ones, as check-examples suffixes.
builds() { (cd "$bin" && ls bfs-cuda-* | grep -v -- '-load$' | sed 's/^bfs-//'); }
# The builds whose pipe loops irglc outlined (they take --outline; a user's
# own schedule, for one, has no persistent form).
outlining_builds() {
  local build
  for build in $(builds); do
    "$bin/bfs-$build" --help 2>/dev/null | grep -q -- '--outline' && echo "$build"
  done
}
# check NAME LABEL SUFFIX...: check-examples.sh over the suffixes (APPS,
# GRAPHS and EXTRA_GRAPHS from the caller), logged to OUT/NAME.log; notes
# the summary and prints the first failures.
check() {
  local name=$1 label=$2 status
  shift 2
  WORK_DIR=/tmp/$name JOBS=${JOBS:-8} timeout "${MATRIX_TIMEOUT:-420}" \
    "$here/check-examples.sh" "$bin" "$data" "$@" > "$out/$name.log" 2>&1
  status=$?
  note "$label: $(tail -1 "$out/$name.log") (exit $status)"
  grep -v " PASS$" "$out/$name.log" | grep -v "^app " | head -20
}

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"

for part in "$@"; do
  case $part in
    unit)
      "$bin/irgl_gpu_runtime_tests" > "$out/unit.log" 2>&1
      note "unit: $(grep -E '^\[  (PASSED|FAILED)  \]' "$out/unit.log" | tr '\n' ' ') (exit $?)"
      "$bin/irgl-gpu-selfcheck" "$data/tiny/karate.mtx.xz" "$data/powerlaw/cnr-2000.txt.xz" \
        rmat:scale=20 grid:500x500 > "$out/selfcheck.log" 2>&1
      note "selfcheck: exit $? ($(grep -c PASS "$out/selfcheck.log") PASS lines)"
      ;;
    matrix)
      suffixes=$(builds | tr '\n' ' ')
      EXTRA_GRAPHS="${EXTRA_GRAPHS:-rmat:scale=20,edge-factor=8: grid:300x300:}" \
        check matrix "matrix ($suffixes)" $suffixes
      ;;
    combos)
      APPS="bfs sssp cc kcore" EXTRA_GRAPHS="rmat:scale=16: grid:300x300:" \
        GRAPHS="${COMBO_GRAPHS:-karate|dolphins|luxembourg|rome99|cnr-2000|ego-twitter|bcsstk16}" \
        check combos "combos (--outline off and persistent)" \
        $(outlining_builds | awk '{ print $0 "@outline=off " $0 "@outline=persistent" }')
      ;;
    sanitize)
      sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
      : > "$out/sanitize.log"
      jobs=()
      for app in bfs sssp cc pr kcore tc spmv mis coloring scc; do
        case $app in
          bfs) opts="--source 0" ;; sssp) opts="--source 0 --weights=hash:20" ;;
          cc) opts="--symmetrize" ;; kcore) opts="--simple --k 3" ;;
          tc|mis|coloring) opts="--simple" ;; spmv) opts="--weights=unit" ;; *) opts="" ;;
        esac
        for build in ${SANITIZE_BUILDS:-cuda-alb cuda-alb-t64 cuda-twc cuda-warp cuda-block cuda-group64 cuda-lb cuda-merge-path}; do
          # karate, and an RMAT graph whose hubs take TWC's block and warp
          # bins (karate's degrees reach neither) and, under alb-t64, ALB's
          # huge-vertex path.
          for graph in $data/tiny/karate.mtx.xz rmat:scale=12; do
            for tool in memcheck racecheck; do
              jobs+=("$sanitizer --tool $tool --error-exitcode 9 $bin/$app-$build $graph $opts")
            done
          done
        done
      done
      printf '%s\n' "${jobs[@]}" |
        xargs -P 4 -I{} bash -c 'out=$({} 2>&1); s=$?; echo "[$s] {}"; echo "$out" | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|rror" | head -3' >> "$out/sanitize.log"
      note "sanitize: $(grep -c '^\[0\]' "$out/sanitize.log") clean of $(grep -c '^\[' "$out/sanitize.log") runs"
      grep -A3 '^\[[1-9]' "$out/sanitize.log" | head -20
      ;;
    load)
      for app in bfs sssp; do
        for schedule in twc alb; do
          opts="--source 0"
          [ $app = sssp ] && opts="$opts --weights=hash:100"
          "$bin/$app-cuda-$schedule-load" "${LOAD_GRAPH:-rmat:scale=22}" $opts --runs 1 \
            --load-report "$out/load-$app-$schedule.json" --force > "$out/load-$app-$schedule.log" 2>&1
          note "load $app $schedule: exit $? $(grep '^time' "$out/load-$app-$schedule.log")"
        done
      done
      ;;
    tasks)
      # Programs of tasks: every look-ahead of four-in-a-row and an opening,
      # and octrees of several sizes and both distributions, under every
      # pool scheme, against the CPU programs; the sanitizers on small runs.
      schemes=(work-stealing static blocking-queue nonblocking-queue)
      # against_cpu PROGRAM "OUTPUTS" ARGS...: each ARGS (a string) under every
      # scheme; OUTPUTS are the output files' suffixes ('-': the first).
      against_cpu() {
        local prog=$1 outputs=$2 fail=0 args scheme f
        shift 2
        for args in "$@"; do
          "$bin/$prog-cpu" $args -o "$out/$prog-cpu" --force > /dev/null 2>&1 || fail=1
          for scheme in "${schemes[@]}"; do
            "$bin/$prog-cuda" $args --task-pool $scheme --task-slots 65536 --runs 2 \
              -o "$out/$prog-gpu" --force > "$out/$prog-gpu.log" 2>&1 || fail=1
            for f in $outputs; do
              [ "$f" = - ] && f=
              cmp -s "$out/$prog-cpu$f" "$out/$prog-gpu$f" || { fail=1; echo "DIFF: $prog $args $scheme $f"; }
            done
          done
        done
        note "tasks: $prog $# cases x ${#schemes[@]} schemes against the CPU: $([ $fail = 0 ] && echo PASS || echo FAIL)"
      }
      against_cpu four_in_a_row "- .score .leaves" "--lookahead 1" "--lookahead 2" "--lookahead 3" \
        "--lookahead 4" "--lookahead 5" "--lookahead 6" "--lookahead 5 --opening 4435"
      against_cpu octree "- .leaves .placed .deepest .signature" "--count 1" "--count 20000" \
        "--count 3000 --leaf 1" "--count 3000 --clustered true --leaf 1" \
        "--count 100000 --clustered true" "--count 1000000" "--count 1000000 --clustered true" \
        "--count 15000000 --clustered true"
      # Molecular dynamics sums reals in another order on the GPU: results
      # within 1e-12 relative (the pairs exactly).
      md_fail=0
      for count in 2500 20000; do
        "$bin/md-forces-cpu" --count $count > "$out/md-cpu.txt" 2>&1 || md_fail=1
        for scheme in "${schemes[@]}"; do
          for order in "" "--sort true" "--sort true --chunk 7000"; do
            "$bin/md-forces-cuda" --count $count --task-pool $scheme --runs 2 $order \
              > "$out/md-gpu.txt" 2>&1 || md_fail=1
            python3 "$here/../../tests/lit/irglc/examples/Inputs/close_results.py" "$out/md-gpu.txt" \
              "$out/md-cpu.txt" || { md_fail=1; echo "DIFF: md_forces $count $scheme $order"; }
          done
        done
      done
      note "tasks: md_forces 2 sizes x ${#schemes[@]} schemes x 3 orders against the CPU: $([ $md_fail = 0 ] && echo PASS || echo FAIL)"
      compute-sanitizer --tool memcheck --error-exitcode 9 "$bin/four_in_a_row-cuda" --lookahead 4 \
        > "$out/c4-memcheck.log" 2>&1
      note "tasks: memcheck exit $? $(grep 'ERROR SUMMARY' "$out/c4-memcheck.log")"
      for tool in memcheck racecheck synccheck; do
        for scheme in work-stealing static; do
          timeout 300 compute-sanitizer --tool $tool --error-exitcode 9 "$bin/octree-cuda" \
            --count 20000 --clustered true --leaf 8 --task-pool $scheme \
            > "$out/octree-$tool-$scheme.log" 2>&1
          note "tasks: octree $tool $scheme exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/octree-$tool-$scheme.log")"
        done
      done
      ;;
    task-graphs)
      schemes=(work-stealing static blocking-queue nonblocking-queue)
      APPS="bfs sssp cc kcore" check tasks-graphs "tasks: bfs/sssp/cc/kcore as tasks" \
        $(for scheme in "${schemes[@]}"; do echo "tasks-cuda@task-pool=$scheme@task-slots=65536"; done) \
        tasks-cuda@task-chain=8@task-slots=65536
      ;;
    afforest)
      APPS=cc check cc-afforest "cc by union-find (cc-afforest-cuda)" afforest-cuda
      compute-sanitizer --tool racecheck --error-exitcode 9 "$bin/cc-afforest-cuda" \
        rmat:scale=12 --symmetrize > "$out/afforest-racecheck.log" 2>&1
      note "afforest: racecheck exit $? $(grep 'RACECHECK SUMMARY' "$out/afforest-racecheck.log")"
      ;;
    consumer)
      "$bin/reachability" "$data/powerlaw/cnr-2000.txt.xz" 1 > "$out/consumer.log" 2>&1
      note "consumer: exit $? $(tail -1 "$out/consumer.log")"
      ;;
    *) echo "device-run: unknown part '$part'" >&2 ;;
  esac
done
printf '%s\n' "${summary[@]}"
