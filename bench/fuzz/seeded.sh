#!/usr/bin/env bash
# bench_fuzz_seeded — libFuzzer executions to the first finding of a seeded
# bug, seeded by the explorer versus unseeded, over many libFuzzer seeds:
# each side's median and quartiles, and the ratio unseeded/seeded with its
# spread.
#
# Needs clang and libFuzzer (builds $FUZZ_BUILD through cmake/fuzz.sh; by
# default without sanitizers, FUZZ_SANITIZE=none, since only the counts
# matter); when they are missing it says so and exits 0, so `make bench`
# still runs the rest. Deterministic: fixed libFuzzer -seed values, -runs
# caps, no time limits. Environment: SEEDS (default 1..21), TARGET (default
# relay_short_sequence_fuzz), CAP (most executions per run, default
# 5000000; a run that reaches it counts as CAP, marked +), FUZZ_BUILD
# (default build-fuzz-plain), FUZZ_SANITIZE (default none).
set -euo pipefail
cd "@PROJECT_SOURCE_DIR@"
SEEDS=${SEEDS:-$(seq -s ' ' 1 21)}
TARGET=${TARGET:-relay_short_sequence_fuzz}
CAP=${CAP:-5000000}
export FUZZ_BUILD=${FUZZ_BUILD:-build-fuzz-plain}
export FUZZ_SANITIZE=${FUZZ_SANITIZE:-none}
export FUZZ_TARGETS=${FUZZ_TARGETS:-$TARGET}
BIN=$FUZZ_BUILD/fuzz-bin
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

if ! cmake/fuzz.sh build > "$WORK/build.log" 2>&1; then
  echo "bench_fuzz_seeded: skipped: $(grep -m1 'ERROR' "$WORK/build.log" || echo 'building the fuzz targets failed')"
  exit 0
fi

# Executions until the first finding of one libFuzzer run.
first_finding() {  # $1 corpus dir, $2 libFuzzer seed
  local log=$WORK/run.log
  "$BIN/$TARGET" "$1" -keep_seed=1 -seed="$2" -runs="$CAP" -artifact_prefix="$WORK/" > "$log" 2>&1 || true
  local n
  n=$(sed -n 's/^==merilo== input of .*; execution \([0-9]*\) of this process/\1/p' "$log" | head -1)
  echo "${n:-$CAP+}"
}

# Quartiles Q1 median Q3 (linear interpolation) of numbers on stdin.
quartiles() {
  tr ' ' '\n' | tr -d '+' | grep -v '^$' | sort -n | awk '
    { a[NR] = $1 }
    function q(p,   h, l) { h = (NR - 1) * p + 1; l = int(h); return a[l] + (h - l) * (a[l + 1 < NR ? l + 1 : NR] - a[l]) }
    END { printf "%.0f %.0f %.0f\n", q(0.25), q(0.5), q(0.75) }'
}

seeded=() unseeded=() ratios=()
for s in $SEEDS; do
  rm -rf "$WORK/seeded" "$WORK/unseeded"
  mkdir -p "$WORK/unseeded"
  "$BIN/$TARGET" -merilo_seed="$WORK/seeded" > "$WORK/seed.log" 2>&1
  a=$(first_finding "$WORK/seeded" "$s")
  b=$(first_finding "$WORK/unseeded" "$s")
  seeded+=("$a")
  unseeded+=("$b")
  ratios+=("$(awk -v u="${b%+}" -v s="${a%+}" 'BEGIN { printf "%.2f", u / s }')")
done
bound=$(sed -n 's/.*seeded [^ ]* with \([0-9]*\) inputs.*search \(complete=[a-z]* depth=[0-9]* states=[0-9]*\).*/\1 seeds; \2/p' "$WORK/seed.log")
read -r sq1 sm sq3 < <(echo "${seeded[*]}" | quartiles)
read -r uq1 um uq3 < <(echo "${unseeded[*]}" | quartiles)
echo "== executions to the first finding, $TARGET (libFuzzer -seed in: $SEEDS; cap $CAP; build $FUZZ_BUILD)"
echo "seeded   ($bound): ${seeded[*]}"
echo "unseeded (empty corpus): ${unseeded[*]}"
echo "| corpus | Q1 | median | Q3 |"
echo "|---|---|---|---|"
echo "| seeded | $sq1 | $sm | $sq3 |"
echo "| unseeded | $uq1 | $um | $uq3 |"
read -r rq1 rm rq3 < <(echo "${ratios[*]}" | tr ' ' '\n' | sort -g | awk '
  { a[NR] = $1 }
  function q(p,   h, l) { h = (NR - 1) * p + 1; l = int(h); return a[l] + (h - l) * (a[l + 1 < NR ? l + 1 : NR] - a[l]) }
  END { printf "%.1f %.1f %.1f\n", q(0.25), q(0.5), q(0.75) }')
awk -v u="$um" -v s="$sm" 'BEGIN { printf "ratio of the medians, unseeded/seeded: %.1fx\n", u / s }'
echo "per-seed ratio unseeded/seeded (same -seed): Q1 ${rq1}x, median ${rm}x, Q3 ${rq3}x"
