#!/usr/bin/env bash
# Paper 003's octree written in the language (lang-examples/tasks/octree.irgl,
# block tasks) against the same algorithm written by hand on the runtime's
# pools (irgl-octree, tools/bench/octree.cu), per pool scheme, particle count
# and distribution. Times are the partition's task-pool run alone (the
# generated program's "task pool partition: ... ms" line; irgl-octree's own
# median), medians of RUNS processes (language) or runs (irgl-octree); the
# uniform particles are the same in both, the clustered ones differ (the
# language program draws its bells from integer hashes so that CPU and GPU
# agree bit for bit). Prints a Markdown table.
#
#   tools/bench/octree-bench.sh BIN_DIR
#
# BIN_DIR holds octree-cuda and irgl-octree, and optionally octree-cuda-T
# builds for other block sizes (irglc --block-threads T), which get rows of
# their own. Environment: COUNTS (default "1000000 5000000 15000000"),
# SCHEMES (default "work-stealing static"), RUNS (default 5), LEAF (32),
# BLOCKS (--task-blocks values the default build also runs, e.g. "132 528").
set -u
bin=$(cd "$1" && pwd)
runs=${RUNS:-5}
leaf=${LEAF:-32}
export IRGL_NO_PROGRESS=1

# lang BINARY ARGS...: "MS TASKS SLOTS": the partition's time in ms, the
# median of RUNS processes (each runs the driver twice and reports the
# second run), and the tasks and most slots a block used in the slowest;
# empty when a run failed or printed no pool line, which reads
# "task pool partition: SCHEME, N tasks in 1 run, ..., at most S used,
# L launches, T ms (last run)".
lang() {
  local prog=$1 i line=
  shift
  for ((i = 0; i < runs; ++i)); do
    line=$("$prog" "$@" --runs 2 2>&1 | sed -n 's/^task pool partition: [a-z-]*, \([0-9]*\) tasks .*at most \([0-9]*\) used.*, \([0-9.]*\) ms\( (last run)\)\{0,1\}$/\3 \1 \2/p')
    [ -n "$line" ] || { echo "octree-bench: no pool line from $prog $*" >&2; return 1; }
    echo "$line"
  done | sort -g | awk '{ ms[NR] = $1 } END { if (NR == '"$runs"')
    print (NR % 2 ? ms[(NR + 1) / 2] : (ms[NR / 2] + ms[NR / 2 + 1]) / 2), $2, $3 }'
}

echo "| particles | distribution | scheme | build | ms | tasks/ms | slots per block used | hand-written ms | language / hand-written |"
echo "|---|---|---|---|---|---|---|---|---|"
for count in ${COUNTS:-1000000 5000000 15000000}; do
  for distribution in uniform clustered; do
    clustered=false
    [ "$distribution" = clustered ] && clustered=true
    for scheme in ${SCHEMES:-work-stealing static}; do
      hand=$("$bin/irgl-octree" --particles "$count" --distribution "$distribution" --leaf "$leaf" \
        --task-pool "$scheme" --task-slots 65536 --runs "$runs" 2>&1 |
        sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p' | head -1)
      for build in "$bin"/octree-cuda "$bin"/octree-cuda-[0-9]*; do
        [ -x "$build" ] || continue
        sweep=default
        [ "$build" = "$bin/octree-cuda" ] && sweep="default ${BLOCKS:-}"
        for blocks in $sweep; do
          extra=()
          [ "$blocks" != default ] && extra=(--task-blocks "$blocks")
          args=(--count "$count" --clustered "$clustered" --leaf "$leaf" --task-pool "$scheme"
                --task-slots 65536 "${extra[@]}")
          read -r ms tasks slots <<< "$(lang "$build" "${args[@]}")"
          name=$(basename "$build")
          [ "$blocks" != default ] && name="$name, $blocks blocks"
          if [ -z "$ms" ]; then
            echo "| $count | $distribution | $scheme | $name | failed | | | ${hand:--} | - |"
            continue
          fi
          awk -v c="$count" -v d="$distribution" -v s="$scheme" -v b="$name" -v ms="$ms" \
              -v t="$tasks" -v sl="$slots" -v h="${hand:-}" 'BEGIN {
            ratio = (h != "" && h > 0) ? sprintf("%.2f", ms / h) : "-"
            printf "| %d | %s | %s | %s | %.3f | %.1f | %s | %s | %s |\n", c, d, s, b, ms,
                   (ms > 0 ? t / ms : 0), sl, (h == "" ? "-" : h), ratio }'
        done
      done
    done
  done
done
