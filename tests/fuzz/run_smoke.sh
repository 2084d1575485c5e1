#!/bin/bash
# Builds the graph-reader fuzzer (fuzz_graph_loaders.cpp plus the runtime's
# host sources) with libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer,
# then fuzzes for a bounded time starting from a copy of tests/inputs/bad and
# tests/inputs/good, so the run never writes into the source tree.
#
# Usage: run_smoke.sh CLANGXX SOURCE_LIST SOURCE_DIR WORK_DIR [SECONDS]
#   SOURCE_LIST  file with one runtime host source (absolute path) per line
#   WORK_DIR     scratch directory, emptied first; a crashing input is left
#                in WORK_DIR/artifacts
set -euo pipefail

clangxx=$1
source_list=$2
source_dir=$3
work=$4
seconds=${5:-60}

rm -rf "$work"
mkdir -p "$work/objects" "$work/corpus" "$work/seeds" "$work/artifacts"

flags="-std=c++17 -O1 -g -fno-sanitize-recover=undefined"
flags+=" -I$source_dir/runtime/include -I$source_dir/runtime/src/graph"

# Compile the sources in parallel, one object each (paths may not contain
# spaces: $FLAGS is split into words).
export CLANGXX=$clangxx OBJECTS=$work/objects
export FLAGS="$flags -fsanitize=fuzzer-no-link,address,undefined"
{ grep -E '\.cpp$' "$source_list"; echo "$source_dir/tests/fuzz/fuzz_graph_loaders.cpp"; } |
  xargs -P "$(nproc)" -n 1 sh -c '$CLANGXX $FLAGS -c "$1" -o "$OBJECTS/$(echo "$1" | tr / _).o"' sh

# shellcheck disable=SC2086
"$clangxx" $flags -fsanitize=fuzzer,address,undefined \
  "$work"/objects/*.o -lz -llzma -lpthread -o "$work/fuzz_graph_loaders"

cp -r "$source_dir/tests/inputs/bad" "$source_dir/tests/inputs/good" "$work/seeds/"

# New inputs go to the first directory (corpus); the seeds are only read.
"$work/fuzz_graph_loaders" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=20 \
  -artifact_prefix="$work/artifacts/" -print_final_stats=1 \
  "$work/corpus" "$work/seeds"
