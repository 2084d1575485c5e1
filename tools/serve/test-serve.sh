#!/usr/bin/env bash
# irgl-serve's end-to-end tests (CMakeLists.txt registers them).
#   test-serve.sh IRGL_SERVE options   bad options: errors naming the option, no GPU needed
#   test-serve.sh IRGL_SERVE answers   a query file, both modes, --check (GPU; 77 without)
#   test-serve.sh IRGL_SERVE socket    two TCP clients and a shutdown (GPU; 77 without)
#   test-serve.sh IRGL_SERVE gpus      an engine on each of two GPUs (77 with fewer)
set -u
serve=$1; what=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
graph="rmat:scale=12,edge-factor=8,seed=3"
fail() { echo "FAIL: $*"; exit 1; }

# Runs irgl-serve expecting exit $1 and stderr containing $2.
expect_error() {
  local rc=$1 text=$2; shift 2
  "$serve" "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null; local got=$?
  [ "$got" = "$rc" ] || fail "irgl-serve $*: exit $got, expected $rc: $(cat "$tmp/err")"
  grep -qF -- "$text" "$tmp/err" || fail "irgl-serve $*: no '$text' in: $(cat "$tmp/err")"
  [ ! -s "$tmp/out" ] || fail "irgl-serve $*: wrote to standard output"
}

case $what in
options)
  expect_error 1 "--mode: error: 'x' is not resident or launch" karate --mode resident,x
  expect_error 1 "--rate: error: '1e' is not a number of queries per second" karate --rate 1e
  expect_error 1 "--rate: error: '-3' is not a number of queries per second" karate --rate -3
  expect_error 1 "--mode: error: several runs or a rate replay a --queries file" karate --mode resident,launch
  expect_error 1 "--placement: error: 'far' is not device or mapped" karate --placement far
  expect_error 1 "--rate: error: several runs or a rate replay a --queries file" karate --rate 10
  expect_error 1 "--kind: error: 'dfs' is not bfs, sssp or khop" karate --kind dfs
  expect_error 1 "--targets: error: at most 8" karate --targets 9
  expect_error 1 "$tmp/none: error: cannot read the queries" karate --queries "$tmp/none"
  expect_error 1 "no graph given" --queries -
  expect_error 1 "--gpus: error: must be at least 1" karate --gpus 0
  expect_error 1 "--gpus: error: several GPUs serve in resident mode only" karate --gpus 2 --mode launch
  # --make-queries needs no GPU: sources with out-edges, the targets asked.
  "$serve" "$graph" --make-queries 5 --kind khop --hops 3 --targets 2 --seed 4 > "$tmp/q" ||
    fail "--make-queries"
  [ "$(wc -l < "$tmp/q")" = 5 ] && awk 'NF != 5 || $1 != "khop" || $3 != 3 { exit 1 }' "$tmp/q" ||
    fail "--make-queries wrote: $(cat "$tmp/q")"
  ;;
answers)
  {
    for kind in bfs sssp khop; do
      "$serve" "$graph" --make-queries 40 --kind $kind --hops 2 --targets 3 --seed 9 || exit 1
    done
    echo "# a comment, then two bad lines"
    echo "bfs 4096"
    echo "walk 1"
  } > "$tmp/queries" || fail "--make-queries"
  for mode in resident launch; do
    "$serve" "$graph" --weights hash:100 --queries "$tmp/queries" --mode $mode --check \
      --stats "$tmp/stats.json" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    [ $rc = 77 ] && exit 77
    cat "$tmp/err"
    [ $rc = 1 ] || fail "$mode: exit $rc, expected 1 (two refused lines)"
    grep -q "check: 120 of 120 answers equal the host's" "$tmp/err" || fail "$mode: check"
    grep -qx "122 error: vertex 4096 is not in the graph (it has 4096 vertices, 0 to 4095)" \
      "$tmp/out" || fail "$mode: no error for line 122"
    grep -qx "123 error: unknown query 'walk' (bfs, sssp or khop)" "$tmp/out" ||
      fail "$mode: no error for line 123"
    [ "$(grep -c ' ok ' "$tmp/out")" = 120 ] || fail "$mode: not 120 answers"
    grep -q '"answered": 120' "$tmp/stats.json" || fail "$mode: stats"
    grep -q "mode $mode, rate 0: 120 answered, 2 refused" "$tmp/err" || fail "$mode: summary"
    sort -n "$tmp/out" | sed 's/ us=.*//' > "$tmp/$mode.answers"
  done
  "$serve" "$graph" --weights hash:100 --queries "$tmp/queries" --mode resident,launch \
    --rate 2000,0 --stats "$tmp/stats.json" > /dev/null 2> "$tmp/err"
  [ $? = 1 ] || fail "paced runs: $(cat "$tmp/err")"
  # Four runs (each run's own count, not its GPUs' counts), each answering all.
  python3 -c 'import json, sys; runs = json.load(open(sys.argv[1]))["runs"]
sys.exit(len(runs) != 4 or any(run["answered"] != 120 for run in runs))' "$tmp/stats.json" ||
    fail "paced runs: $(cat "$tmp/stats.json")"
  grep -q "mode launch, rate 2000: 120 answered" "$tmp/err" || fail "paced runs: $(cat "$tmp/err")"
  cmp -s "$tmp/resident.answers" "$tmp/launch.answers" ||
    fail "the modes answer differently: $(diff "$tmp/resident.answers" "$tmp/launch.answers" | head)"
  ;;
socket)
  port=$((40000 + RANDOM % 20000))
  "$serve" "$graph" --listen $port > "$tmp/out" 2> "$tmp/err" &
  server=$!
  for _ in $(seq 100); do grep -q listening "$tmp/err" && break; kill -0 $server 2>/dev/null || break; sleep 0.1; done
  grep -q "no usable GPU" "$tmp/err" && exit 77
  grep -q listening "$tmp/err" || fail "not listening: $(cat "$tmp/err")"
  exec 3<> /dev/tcp/127.0.0.1/$port || fail "connect"
  exec 4<> /dev/tcp/127.0.0.1/$port || fail "connect"
  printf 'bfs 1\nbfs x\nkhop 1 1\n' >&3
  printf 'khop 2 0\nshutdowns\n' >&4
  # Two answers in either order: the error is written at once, the answer
  # when the GPU has it.
  read -r -t 20 a <&4 && read -r -t 20 b <&4 || fail "no two answers on the second connection"
  second=$(printf '%s\n%s\n' "$a" "$b" | sort)
  [[ $second == "1 ok khop 2 0 reached=1 levels=0 us="*$'\n'"2 error: unknown query 'shutdowns' (bfs, sssp or khop)" ]] ||
    fail "second connection: $second"
  printf 'shutdown\n' >&4
  answers=$(timeout 20 cat <&3) || fail "first connection did not end"
  wait $server || fail "server exit $? (a refused query is answered, not an exit): $(cat "$tmp/err")"
  [ "$(echo "$answers" | grep -c ' ok ')" = 2 ] || fail "first connection: $answers"
  echo "$answers" | grep -qx "2 error: 'x' is not a vertex id" || fail "first connection: $answers"
  ;;
gpus)
  # Two GPUs, an engine on each: answers equal the host's, both GPUs used.
  "$serve" "$graph" --make-queries 200 --kind bfs --targets 2 --seed 5 > "$tmp/queries" || fail "--make-queries"
  "$serve" "$graph" --weights hash:100 --queries "$tmp/queries" --gpus 2 --check \
    --stats "$tmp/stats.json" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  grep -q "no usable GPU\|--gpus: error: 2 GPUs asked" "$tmp/err" && exit 77
  cat "$tmp/err"
  [ $rc = 0 ] || fail "exit $rc"
  grep -q "check: 200 of 200 answers equal the host's" "$tmp/err" || fail "check"
  for g in 0 1; do
    grep -q "GPU $g: .* [1-9][0-9]* answered" "$tmp/err" || fail "GPU $g answered nothing"
  done
  ;;
*) fail "unknown test $what" ;;
esac
echo "irgl-serve $what: passed"
