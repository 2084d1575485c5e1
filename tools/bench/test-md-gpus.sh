#!/usr/bin/env bash
# irgl-md-gpus's tests (CMakeLists.txt registers them).
#   test-md-gpus.sh BIN options     bad options: errors naming the option, no GPU needed
#   test-md-gpus.sh BIN check G     every scheme and order on G GPUs against the
#                                   host's sums (GPU; 77 without G of them)
set -u
bin=$1; what=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Runs the tool expecting exit 1 and stderr containing $1, nothing on stdout.
expect_error() {
  local text=$1; shift
  "$bin" "$@" > "$tmp/out" 2> "$tmp/err"; local got=$?
  [ "$got" = 1 ] || fail "irgl-md-gpus $*: exit $got, expected 1: $(cat "$tmp/err")"
  grep -qF -- "$text" "$tmp/err" || fail "irgl-md-gpus $*: no '$text' in: $(cat "$tmp/err")"
  [ ! -s "$tmp/out" ] || fail "irgl-md-gpus $*: wrote to standard output"
}

case $what in
options)
  expect_error "--scheme: error: 'steal' is not queue, split or chunks" --scheme steal
  expect_error "--order: error: 'spatial' is not random or sorted" --order spatial
  expect_error "--atoms: error: must be at least 1" --atoms 0
  expect_error "--gpus: error: must be at least 1" --gpus 0
  expect_error "--batch: error: must be at least 1" --batch 0
  expect_error "--chunk-groups: error: must be at least 1" --chunk-groups 0
  expect_error "--cutoff: error: must be positive" --cutoff 0
  expect_error "--runs: error: must be at least 1" --runs 0
  echo "irgl-md-gpus options: passed"
  ;;
check)
  gpus=$3
  # 20,000 atoms: 157 groups, the last one partial; batches and chunks
  # that do not divide them.
  for scheme in queue split chunks; do
    for order in random sorted; do
      "$bin" --atoms 20000 --gpus "$gpus" --scheme $scheme --order $order --batch 7 \
        --chunk-groups 9 --runs 2 --check > "$tmp/out" 2>&1
      rc=$?
      [ $rc = 77 ] && exit 77
      grep -q -- "--gpus: error: $gpus asked" "$tmp/out" && { echo "fewer than $gpus GPUs: skipped"; exit 77; }
      [ $rc = 0 ] || fail "$scheme $order: exit $rc: $(cat "$tmp/out")"
      grep -q "^check: the host's sums agree" "$tmp/out" || fail "$scheme $order: $(cat "$tmp/out")"
      total=$(grep '^run 2:' "$tmp/out" | grep -o '[0-9]* groups' | awk '{ s += $1 } END { print s }')
      [ "$total" = 157 ] || fail "$scheme $order: the GPUs ran $total groups, not 157"
      echo "$scheme $order on $gpus GPU(s): $(grep '^time:' "$tmp/out")"
    done
  done
  echo "irgl-md-gpus check: passed"
  ;;
*) fail "unknown test $what" ;;
esac
