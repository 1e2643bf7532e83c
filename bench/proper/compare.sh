#!/usr/bin/env bash
# compare.sh [BENCH_SCHEDULERS] — merilo's parallel tester against PropEr's
# parallel statem (proper_statem:parallel_commands/2 and
# run_parallel_commands/2) on the same four seeded nanosecond-wide races,
# one tool after the other in one run, printed as one Markdown table.
#
# merilo: bench_schedulers (default build-bench/bench-bin/bench_schedulers,
# a Release build) for each bug, controlled and stress rows, seeds 1..CHECKS.
# PropEr: the Erlang twins in this folder (bench_proper.erl), CHECKS
# independent checks per bug at PropEr's defaults (100 tests each; PropEr
# 1.2 has no seed option), then each fixed variant checked once, then the
# three ETS bugs with erlang:yield() planted in the window (a check that
# the harness finds them when the branches interleave; not the measure).
#
# Environment: CHECKS (default 100), ONLY=word (the bugs whose name holds
# it, e.g. ONLY=deadlock), PROPER_TIMEOUT (seconds the PropEr side may take
# in all, default 7200; it is stopped and reported past that),
# PROPER_ERL_FLAGS (extra flags for erl, e.g. "+S 1" for one scheduler).
# Needs erl, erlc and PropEr (Debian: erlang-base erlang-proper
# erlang-proper-dev; cmake/deps.sh proper installs them as root).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bench=${1:-$root/build-bench/bench-bin/bench_schedulers}
checks=${CHECKS:-100}
only=${ONLY:-}
proper_timeout=${PROPER_TIMEOUT:-7200}

missing=()
command -v erl >/dev/null || missing+=("erl (Debian package erlang-base)")
command -v erlc >/dev/null || missing+=("erlc (Debian package erlang-base)")
proper_dir=""
if command -v erl >/dev/null; then
  proper_dir=$(erl -noshell -eval 'case code:lib_dir(proper) of {error, _} -> ok; D -> io:format("~s", [D]) end, halt().' 2>/dev/null || true)
fi
if [ -z "$proper_dir" ] || [ ! -f "$proper_dir/ebin/proper.beam" ]; then
  missing+=("PropEr's ebin (proper.beam; Debian package erlang-proper)")
elif [ ! -f "$proper_dir/include/proper.hrl" ]; then
  missing+=("PropEr's include/proper.hrl (Debian package erlang-proper-dev)")
fi
if [ ${#missing[@]} -gt 0 ]; then
  joined=$(printf '%s; ' "${missing[@]}")
  echo "compare.sh: missing: ${joined%; }" >&2
  echo "  install with: sudo cmake/deps.sh proper   (or apt-get install -y erlang-base erlang-proper erlang-proper-dev)" >&2
  exit 1
fi
[ -x "$bench" ] || {
  echo "compare.sh: $bench is not an executable; build it with" >&2
  echo "  cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DMERILO_BUILD_BENCH=ON && cmake --build build-bench --target bench_schedulers" >&2
  exit 1
}
"$root/bench/require_optimized.sh" "$bench"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
erlc -o "$work" "$here"/*.erl

# bug name -> the word bench_schedulers' MERILO_BENCH_ONLY picks it by.
bugs=("lost increment" "double insert" "lock-order deadlock" "queue over capacity")
declare -A word=([lost increment]=increment [double insert]=insert
                 [lock-order deadlock]=deadlock [queue over capacity]=capacity)

# CPU seconds (user + system) of the finished children so far.
# (times runs in this shell, not in a pipe's subshell, whose children are
# not these.)
cpu() {
  times > "$work/times"
  tail -1 "$work/times" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); t += p[1] * 60 + p[2] } printf "%.1f\n", t }'
}
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
start=$(date +%s)
cpu > "$work/cpu_start"

# merilo: one bench_schedulers run per bug (controlled, then stress).
: > "$work/merilo"
for bug in "${bugs[@]}"; do
  [[ -z "$only" || "$bug" == *"$only"* ]] || continue
  MERILO_BENCH_ONLY=${word[$bug]} "$bench" "$checks" | grep --line-buffered "^| $bug |" | tee -a "$work/merilo" >&2
done
merilo_done=$(date +%s)
cpu > "$work/cpu_merilo"
echo "merilo done; load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2

# PropEr: the same bugs, then the fixed variants.
status=0
# shellcheck disable=SC2086  # PROPER_ERL_FLAGS is a list of flags
BENCH_PROPER_ONLY=$only timeout "$proper_timeout" erl ${PROPER_ERL_FLAGS:-} -noshell -pa "$work" \
  -run bench_proper main "$checks" -s init stop > "$work/proper" || status=$?
cat "$work/proper" >&2
if [ "$status" -eq 124 ]; then
  echo "compare.sh: the PropEr side was stopped after PROPER_TIMEOUT=$proper_timeout s" >&2
elif [ "$status" -ne 0 ]; then
  echo "compare.sh: the PropEr side failed (exit $status)" >&2
fi
end=$(date +%s)
cpu > "$work/cpu_end"
read -r cpu_start < "$work/cpu_start"
read -r cpu_merilo < "$work/cpu_merilo"
read -r cpu_end < "$work/cpu_end"
awk -v w="$((merilo_done - start))" -v a="$cpu_start" -v b="$cpu_merilo" \
  'BEGIN { printf "merilo side: %d s wall, %.1f s CPU\n", w, b - a }'
awk -v w="$((end - merilo_done))" -v a="$cpu_merilo" -v b="$cpu_end" \
  'BEGIN { printf "PropEr side: %d s wall, %.1f s CPU\n", w, b - a }'
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
header=$(sed -n 's/^## //p' "$work/proper" | head -1)
echo "PropEr build: ${header:-?}"
echo

# One table: merilo's rows (| bug | mode | found | least | to first
# failure | per check | ms |) and PropEr's (the same columns) side by side,
# with executions per ms of check time added.
# (merilo's "to first failure" counts the failing case's own executions;
# PropEr's counts runs from the check's start, one per case: see
# docs/design/proper-peer.md.)
echo "| bug | tool | found | shrunk to least | median executions to first failure | median executions per check | median ms per check | executions per ms |"
echo "|---|---|---|---|---|---|---|---|"
for bug in "${bugs[@]}"; do
  [[ -z "$only" || "$bug" == *"$only"* ]] || continue
  {
    grep "^| $bug |" "$work/merilo" | sed 's/| controlled |/| merilo controlled |/; s/| stress |/| merilo stress |/'
    grep "^| $bug | PropEr |" "$work/proper" || echo "| $bug | PropEr | (no result) | | | | |"
  } | awk -F'|' '{
      per = $7 + 0; ms = $8 + 0
      rate = (ms > 0 && per > 0) ? sprintf("%.2f", per / ms) : "-"
      printf "|%s|%s|%s|%s|%s|%s|%s| %s |\n", $2, $3, $4, $5, $6, $7, $8, rate
    }'
done
# PropEr's other parts as it printed them: the fixed variants, and the ETS
# bugs with erlang:yield() in the window (the harness finds a bug whose
# interleaving happens).
if grep -q '^## fixed' "$work/proper"; then
  echo
  sed -n '/^## fixed/,$p' "$work/proper" | sed 's/^## \(.*\)/PropEr, \1:/'
fi
exit "$status"
