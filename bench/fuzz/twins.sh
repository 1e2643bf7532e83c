#!/usr/bin/env bash
# bench_fuzz_twins (make bench-fuzz-twins) — each example fuzz target beside
# its hand-written twin (bench/fuzz/twin.hpp: the same system, one byte a
# step, no merilo runner), in one run, built in one tree with the same flags
# (clang, -O2 -g, -fsanitize=fuzzer,address,undefined by default).
#
# Each side runs TWIN_RUNS inputs from an empty corpus with the same
# libFuzzer -seed, alternately, ROUNDS times; a row gives each side's median
# executions per CPU second (user+sys of the process, which other work on a
# shared machine does not shrink) and the ratio merilo/twin, marked when it
# is below 0.8. The last column is merilo's rate on its own seeded corpus
# (-merilo_seed), as `make fuzz` runs it: longer schedules, so fewer
# executions a second; the twin has no such corpus.
#
# Environment: TWIN_RUNS (default 30000), ROUNDS (default 3), ONLY (an
# extended regex over the merilo target names), FUZZ_BUILD (default
# build-fuzz; configured with bench/ on), FUZZ_SANITIZE, JOBS. Needs clang
# and libFuzzer; prints "skipped" without them.
set -euo pipefail
ROOT=@PROJECT_SOURCE_DIR@
[[ $ROOT == @* ]] && ROOT=$(cd "$(dirname "$0")/../.." && pwd)  # run from the source tree
cd "$ROOT"
TWIN_RUNS=${TWIN_RUNS:-30000}
ROUNDS=${ROUNDS:-3}
ONLY=${ONLY:-.}
export FUZZ_BUILD=${FUZZ_BUILD:-build-fuzz}
export FUZZ_BENCH=ON
BIN=$FUZZ_BUILD/fuzz-bin
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# The pairs: every twin whose merilo target is a plain one (no seeded bug).
pairs() {
  [[ -f $BIN/twins.txt && -f $BIN/targets.txt ]] || return 0
  local m t
  while read -r m t; do
    grep -qx "$m" "$BIN/targets.txt" && grep -qE "$ONLY" <<< "$m" && echo "$m $t"
  done < "$BIN/twins.txt"
}

# Configure first (twins.txt is written then), then build the pairs.
if ! FUZZ_TARGETS=merilo_fuzz cmake/fuzz.sh build > "$WORK/build.log" 2>&1 \
  || ! FUZZ_TARGETS="$(pairs | tr '\n' ' ')" cmake/fuzz.sh build > "$WORK/build.log" 2>&1; then
  echo "bench_fuzz_twins: skipped: $(grep -m1 'ERROR' "$WORK/build.log" || echo 'building the fuzz targets failed')"
  exit 0
fi

# cpu_rate BINARY SEED [CORPUS]: executions per CPU second of TWIN_RUNS
# inputs (an empty corpus unless one is given).
cpu_rate() {
  local corpus=${3:-}
  if [[ -z $corpus ]]; then
    corpus=$WORK/corpus
    rm -rf "$corpus"
    mkdir -p "$corpus"
  fi
  # This shell's own and its waited-for children's CPU ticks (BASHPID: the
  # command substitution's shell that calls this, not the script's).
  local c0 c1 me=$BASHPID
  read -r c0 < <(awk '{print $14 + $15 + $16 + $17}' "/proc/$me/stat")
  ("$1" "$corpus" -seed="$2" -runs="$TWIN_RUNS" > "$WORK/rate.log" 2>&1 || true)
  read -r c1 < <(awk '{print $14 + $15 + $16 + $17}' "/proc/$me/stat")
  grep -q "^Done $TWIN_RUNS runs" "$WORK/rate.log" || { echo "0"; return; }
  awk -v n="$TWIN_RUNS" -v c="$((c1 - c0))" -v k="$(getconf CLK_TCK)" \
    'BEGIN { printf "%.0f\n", n / (c > 0 ? c / k : 1e-9) }'
}

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

echo "== merilo targets beside their hand-written twins: $TWIN_RUNS inputs a run, empty corpora," \
  "$ROUNDS alternating rounds (-seed=1..$ROUNDS), median executions per CPU second;" \
  "build $FUZZ_BUILD (sanitizers: ${FUZZ_SANITIZE:-address,undefined})"
echo "| target | merilo execs/CPU-s | twin execs/CPU-s | merilo/twin | merilo, seeded corpus |"
echo "|---|---|---|---|---|"
status=0
while read -r m t; do
  [[ -n $m ]] || continue
  rm -rf "$WORK/seeds"
  "$BIN/$m" -merilo_seed="$WORK/seeds" > /dev/null 2>&1 || true
  ms=() ts=() ss=()
  for r in $(seq 1 "$ROUNDS"); do
    ms+=("$(cpu_rate "$BIN/$m" "$r")")
    ts+=("$(cpu_rate "$BIN/$t" "$r")")
    ss+=("$(cpu_rate "$BIN/$m" "$r" "$WORK/seeds")")
  done
  mr=$(echo "${ms[*]}" | median)
  tr_=$(echo "${ts[*]}" | median)
  sr=$(echo "${ss[*]}" | median)
  ratio=$(awk -v a="$mr" -v b="$tr_" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
  mark=""
  if awk -v x="$ratio" 'BEGIN { exit !(x < 0.8) }'; then
    mark=" (below 0.8)"
    status=1
  fi
  echo "| $m | $mr | $tr_ | ${ratio}x$mark | $sr |"
done < <(pairs)
[[ $status -eq 0 ]] && echo "every merilo target ran at 0.8x its twin or better"
[[ $status -eq 0 ]] || echo "bench_fuzz_twins: some target ran below 0.8x its twin"
exit 0
