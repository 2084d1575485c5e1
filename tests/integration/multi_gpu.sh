#!/usr/bin/env bash
# The multi-GPU builds (<app>-cuda-parts) on 2 GPUs, and on 4 where the
# machine has them, under every partition policy: each answer must pass
# irgl-check. Exits 77 (skipped) with fewer than 2 GPUs.
#
#   multi_gpu.sh SOURCE_DIR BIN_DIR GRAPH
set -u
source_dir=$1 bin=$2 graph=$3
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
if [ "${gpus:-0}" -lt 2 ]; then
  echo "multi_gpu: SKIPPED: $gpus GPUs (needs 2)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
counts="2"
[ "$gpus" -ge 4 ] && counts="2 4"
for app in bfs sssp cc pr kcore; do
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
      out=$work/$app-$n-$policy.out
      if ! "$source_dir/tools/irgl-launch" -n "$n" "$program" "$graph" $opts --partition "$policy" \
           --output "$out" > "$out.log" 2>&1; then
        echo "FAILED $app on $n GPUs, $policy: $(tail -1 "$out.log")"
        failures=$((failures + 1))
      elif ! "$bin/irgl-check" --algorithm "$app" $opts "$graph" "$out" > "$out.check" 2>&1; then
        echo "WRONG $app on $n GPUs, $policy: $(tail -1 "$out.check")"
        failures=$((failures + 1))
      else
        echo "PASS $app on $n GPUs, $policy"
      fi
    done
  done
done
exit $((failures > 0))
