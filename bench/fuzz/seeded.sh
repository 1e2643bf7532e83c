#!/usr/bin/env bash
# bench_fuzz_seeded — libFuzzer executions to the first finding, seeded by
# the explorer versus unseeded, and libFuzzer execs/s of each example target.
#
# Needs clang and libFuzzer (builds build-fuzz/ through cmake/fuzz.sh); when
# they are missing it says so and exits 0, so `make bench` still runs the
# rest. Deterministic: fixed libFuzzer -seed values, -runs caps, no time
# limits. Environment: SEEDS (default "1 2 3 4 5 6 7"), TARGET (default
# twophase_lazy_log_fuzz), CAP (most executions per run, default 2000000),
# RATE_RUNS (executions for the execs/s figures, default 100000).
set -euo pipefail
cd "@PROJECT_SOURCE_DIR@"
SEEDS=${SEEDS:-1 2 3 4 5 6 7}
TARGET=${TARGET:-twophase_lazy_log_fuzz}
CAP=${CAP:-2000000}
RATE_RUNS=${RATE_RUNS:-100000}
export FUZZ_BUILD=${FUZZ_BUILD:-build-fuzz}
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
  "$BIN/$TARGET" "$1" -seed="$2" -runs="$CAP" -artifact_prefix="$WORK/" > "$log" 2>&1 || true
  local n
  n=$(sed -n 's/^==merilo== input of .*; execution \([0-9]*\) of this process/\1/p' "$log" | head -1)
  echo "${n:-$CAP+}"
}

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

seeded=() unseeded=()
for s in $SEEDS; do
  rm -rf "$WORK/seeded" "$WORK/unseeded"
  mkdir -p "$WORK/unseeded"
  "$BIN/$TARGET" -merilo_seed="$WORK/seeded" > "$WORK/seed.log" 2>&1
  seeded+=("$(first_finding "$WORK/seeded" "$s")")
  unseeded+=("$(first_finding "$WORK/unseeded" "$s")")
done
bound=$(sed -n 's/.*search \(complete=[a-z]* depth=[0-9]* states=[0-9]*\).*/\1/p' "$WORK/seed.log")
ms=$(echo "${seeded[*]}" | median)
mu=$(echo "${unseeded[*]}" | median)
echo "== executions to the first finding, $TARGET (libFuzzer -seed in: $SEEDS; cap $CAP)"
echo "seeded   ($bound): ${seeded[*]}  median $ms"
echo "unseeded (empty corpus):  ${unseeded[*]}  median $mu"
awk -v u="$mu" -v s="$ms" 'BEGIN { printf "ratio unseeded/seeded (medians): %.1fx\n", u / s }'

echo "== libFuzzer execs/s of each example target (seeded corpus, -runs=$RATE_RUNS, -seed=1, ASan+UBSan)"
while read -r t; do
  [[ -n $t ]] || continue
  rm -rf "$WORK/c"
  "$BIN/$t" -merilo_seed="$WORK/c" > /dev/null 2>&1
  start=$(date +%s.%N)
  "$BIN/$t" "$WORK/c" -seed=1 -runs="$RATE_RUNS" > "$WORK/rate.log" 2>&1 || true
  end=$(date +%s.%N)
  awk -v t="$t" -v n="$RATE_RUNS" -v a="$start" -v b="$end" \
    'BEGIN { printf "%-16s %8.0f execs/s\n", t, n / (b - a) }'
done < "$BIN/targets.txt"
