#!/usr/bin/env bash
# The multi-GPU builds (<app>-cuda-parts) on 1 and 2 GPUs, and on 4 where
# the machine has them, under every partition policy, and on the most GPUs
# with each fixed frontier form: each answer must pass irgl-check. Exits 77
# (skipped) without a GPU; with one, only the one-GPU runs. APPS and COUNTS
# narrow the apps and GPU counts (default: all).
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

# run APP PROGRAM GPUS OPTIONS...: one launch, its answer checked.
run() {
  local app=$1 program=$2 n=$3
  shift 3
  local out=$work/$app-$n-$(echo "$*" | tr -c 'A-Za-z0-9=\n' '_').out
  if ! "$source_dir/tools/irgl-launch" -n "$n" "$program" "$graph" "$@" --output "$out" \
       > "$out.log" 2>&1; then
    echo "FAILED $app on $n GPUs, $*: $(tail -1 "$out.log")"
    failures=$((failures + 1))
  elif ! "$bin/irgl-check" --algorithm "$app" $opts "$graph" "$out" > "$out.check" 2>&1; then
    echo "WRONG $app on $n GPUs, $*: $(tail -1 "$out.check")"
    failures=$((failures + 1))
  else
    echo "PASS $app on $n GPUs, $*"
  fi
}
for app in ${APPS:-bfs sssp cc pr kcore}; do
  program=$bin/$app-cuda-parts
  [ "$app" = kcore ] && program=$bin/kcore-settle-cuda-parts
  case $app in
    sssp) opts="--weights=hash:100" ;;
    cc) opts="--symmetrize" ;;
    kcore) opts="--simple --k 3" ;;
    *) opts="" ;;
  esac
  for n in $counts; do
    for policy in oec iec cvc; do
      run "$app" "$program" "$n" $opts --partition "$policy"
    done
  done
  [ "$app" = pr ] && continue  # pr has no worklist
  for form in sparse unique dense sweep; do
    run "$app" "$program" "$most" $opts --partition cvc --frontier "$form"
  done
done
exit $((failures > 0))
