#!/usr/bin/env bash
# The multi-GPU builds (<app>-cuda-parts) on 1 and 2 GPUs, and on 4 where
# the machine has them, under every partition policy, and on the most GPUs
# with each fixed frontier form: each answer must pass irgl-check (the
# processes generate the graph and keep their parts). Then the processes
# map a binary CSR and copy their parts, on the most GPUs: the cache entry
# a one-GPU run wrote, and for bfs and pr a .csr input; and once more as
# if over two hosts (irgl-launch --hosts 2: Open MPI's variables, each half
# its own GPUs, NCCL's network transport between them). Exits 77
# (skipped) without a GPU; with one, only the one-GPU runs. APPS, COUNTS and
# FORMS narrow the apps, GPU counts and frontier forms (default: all).
#
#   multi_gpu.sh SOURCE_DIR BIN_DIR GRAPH
set -u
source_dir=$1 bin=$2 graph=$3
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
if [ "${gpus:-0}" -lt 1 ]; then
  echo "multi_gpu: SKIPPED: no GPU"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
counts="1"
[ "$gpus" -ge 2 ] && counts="1 2"
[ "$gpus" -ge 4 ] && counts="1 2 4"
counts=${COUNTS:-$counts}
most=${counts##* }

# run APP PROGRAM GPUS OPTIONS...: one launch on $input, its answer checked
# (with the graph options $opts); $stage names the run's output apart from
# the other stages'; with mapping set, its processes must have mapped a
# binary CSR; $hosts emulates that many hosts.
run() {
  local app=$1 program=$2 n=$3
  shift 3
  local out=$work/$app-$n${stage:+-$stage}-$(echo "$input $*" | tr -c 'A-Za-z0-9=\n' '_').out
  # Over emulated hosts, NCCL says which transport joins them.
  local debug=()
  [ "${hosts:-1}" -gt 1 ] && debug=(env NCCL_DEBUG=INFO)
  if ! "${debug[@]}" "$source_dir/tools/irgl-launch" -n "$n" --hosts "${hosts:-1}" "$program" \
       "$input" "$@" --output "$out" > "$out.log" 2>&1; then
    echo "FAILED $app on $n GPUs, $input $*: $(tail -1 "$out.log")"
    failures=$((failures + 1))
  elif ! "$bin/irgl-check" --algorithm "$app" $opts "$input" "$out" > "$out.check" 2>&1; then
    echo "WRONG $app on $n GPUs, $input $*: $(tail -1 "$out.check")"
    failures=$((failures + 1))
  elif [ -n "${mapping:-}" ] && ! grep -q "maps .* and copies its part" "$out.log"; then
    echo "FAILED $app on $n GPUs, $input $*: the processes did not map the file"
    failures=$((failures + 1))
  elif [ "${hosts:-1}" -gt 1 ] && ! grep -q "via NET/" "$out.log"; then
    echo "FAILED $app on $n GPUs over $hosts hosts, $input $*: NCCL joined them without its network"
    failures=$((failures + 1))
  else
    # The payload forms the exchange chose (sparse pairs or dense), rank 0's.
    local payloads hosts_note=""
    payloads=$(grep -o '[0-9]* payloads, [0-9]* dense' "$out.log" | head -1)
    [ "${hosts:-1}" -gt 1 ] &&
      hosts_note=" over $hosts hosts ($(grep -o 'via NET/[A-Za-z]*' "$out.log" | sort -u | head -1))"
    echo "PASS $app on $n GPUs$hosts_note, $input $*${payloads:+ ($payloads)}"
  fi
}
for app in ${APPS:-bfs sssp cc pr kcore}; do
  program=$bin/$app-cuda-parts
  [ "$app" = kcore ] && program=$bin/kcore-settle-cuda-parts
  program_opts=""
  case $app in
    sssp) opts="--weights=hash:100" ;;
    cc) opts="--symmetrize" ;;
    kcore) opts="--simple"; program_opts="--k 3" ;;
    *) opts="" ;;
  esac
  input=$graph
  for n in $counts; do
    for policy in oec iec cvc; do
      run "$app" "$program" "$n" $opts $program_opts --partition "$policy"
    done
  done
  if [ "$app" != pr ]; then  # pr has no worklist
    for form in ${FORMS-sparse unique dense sweep}; do
      run "$app" "$program" "$most" $opts $program_opts --partition cvc --frontier "$form"
    done
  fi
  [ "$most" -ge 2 ] && stage=hosts hosts=2 run "$app" "$program" "$most" $opts $program_opts --partition cvc
  # A one-GPU run loads the whole graph and writes its cache entry, which
  # the processes of the next map.
  export IRGL_CACHE_DIR=$work/cache
  stage=cache-write run "$app" "$program" 1 $opts $program_opts --partition cvc
  stage=cache mapping=1 run "$app" "$program" "$most" $opts $program_opts --partition cvc
  unset IRGL_CACHE_DIR
  # A .csr input the program loads as it is (cc and kcore make theirs
  # symmetric, which a load of a file does again).
  [ "$app" = bfs ] || [ "$app" = pr ] || continue
  input=$work/$app.csr
  if ! "$bin/irgl-graph" convert --quiet --transpose $opts "$graph" "$input" > "$input.log" 2>&1; then
    echo "FAILED converting $graph for $app: $(tail -1 "$input.log")"
    failures=$((failures + 1))
    continue
  fi
  stage=csr mapping=1 run "$app" "$program" "$most" $program_opts --partition cvc
done
exit $((failures > 0))
