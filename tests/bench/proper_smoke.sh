#!/usr/bin/env bash
# proper_smoke.sh ROOT WORKDIR MODE — cheap checks of bench/proper/:
#   missing: compare.sh, with no erl on PATH, stops and names what is missing;
#   run:     the Erlang twins compile, a fixed variant passes, the widened
#            lost increment (erlang:yield() in its window) is found, and the
#            driver prints a row in bench_schedulers' columns. Skipped (77)
#            when erl, erlc or PropEr is absent.
set -euo pipefail
root=${1:?usage: proper_smoke.sh ROOT WORKDIR MODE}
work=${2:?usage: proper_smoke.sh ROOT WORKDIR MODE}
mode=${3:?usage: proper_smoke.sh ROOT WORKDIR MODE}
rm -rf "$work" && mkdir -p "$work"

case $mode in
  missing)
    # A PATH with only what compare.sh needs before its dependency check.
    mkdir -p "$work/bin"
    for tool in dirname; do ln -s "$(command -v "$tool")" "$work/bin/$tool"; done
    status=0
    PATH=$work/bin "$(command -v bash)" "$root/bench/proper/compare.sh" /nonexistent \
      > "$work/out" 2> "$work/err" || status=$?
    cat "$work/err"
    [ "$status" -eq 1 ] || { echo "FAIL: exit $status, want 1"; exit 1; }
    grep -q '^compare.sh: missing: erl (Debian package erlang-base)' "$work/err" ||
      { echo "FAIL: erl is not named as missing"; exit 1; }
    grep -q 'deps.sh proper' "$work/err" || { echo "FAIL: no install hint"; exit 1; }
    ;;
  run)
    for tool in erl erlc; do
      command -v "$tool" > /dev/null || { echo "skipped: $tool is not installed (cmake/deps.sh proper)"; exit 77; }
    done
    erl -noshell -eval 'case code:lib_dir(proper) of {error, _} -> halt(1); _ -> halt(0) end.' ||
      { echo "skipped: PropEr is not installed (cmake/deps.sh proper)"; exit 77; }
    erlc -o "$work" "$root"/bench/proper/*.erl
    erl -noshell -pa "$work" -eval '
      Fixed = [element(1, bench_proper:check(M, fixed))
               || M <- [counter_statem, set_statem, pair_queue_statem]],
      {Widened, Calls, _, _, Why, _} = bench_proper:check(counter_statem, widened),
      io:format("fixed: ~p~nwidened lost increment: ~p, ~p, shrunk to ~b calls~n",
                [Fixed, Widened, Why, Calls]),
      Ok = Fixed =:= [passed, passed, passed] andalso Widened =:= failed
           andalso Why =:= no_possible_interleaving,
      halt(case Ok of true -> 0; false -> 1 end).' > "$work/checks" ||
      { cat "$work/checks"; echo "FAIL: a fixed variant failed or the widened bug was missed"; exit 1; }
    cat "$work/checks"
    BENCH_PROPER_ONLY=increment erl -noshell -pa "$work" -run bench_proper main 1 -s init stop > "$work/rows"
    cat "$work/rows"
    grep -Eq '^\| lost increment \| PropEr \| [01]/1 \| [01]/1 \| (-|[0-9]+) \| [0-9]+ \| [0-9.]+ \|$' "$work/rows" ||
      { echo "FAIL: no row in bench_schedulers' columns"; exit 1; }
    ;;
  *)
    echo "proper_smoke.sh: unknown mode '$mode' (missing or run)" >&2
    exit 2
    ;;
esac
echo "ok"
