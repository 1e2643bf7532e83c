#!/usr/bin/env bash
# bench_fuzz_rates — libFuzzer executions per second of every example fuzz
# target beside a trivial target (the limit: libFuzzer's own cost per
# input), under ASan+UBSan and without sanitizers (-fsanitize=fuzzer
# alone), all in one run so the ratios compare like with like.
#
# Each target is seeded (-merilo_seed), then runs RATE_RUNS inputs with
# -seed=1. Two rates are printed: per CPU second (user+sys of the process;
# steady on a shared machine) and per wall second (what libFuzzer reports,
# which drops when other processes take the cores).
#
# Needs clang and libFuzzer: builds $FUZZ_BUILD (ASan+UBSan) and
# $FUZZ_BUILD-plain (no sanitizers) through cmake/fuzz.sh, or prints
# "skipped". BEFORE=DIR adds the targets of another build tree's fuzz-bin
# (e.g. one built from an older commit) as "before" rows; BEFORE_PLAIN the
# same for the build without sanitizers. Environment: RATE_RUNS (default
# 100000), FUZZ_BUILD (default build-fuzz), JOBS.
set -euo pipefail
cd "@PROJECT_SOURCE_DIR@"
RATE_RUNS=${RATE_RUNS:-100000}
FUZZ_BUILD=${FUZZ_BUILD:-build-fuzz}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

if ! FUZZ_BUILD=$FUZZ_BUILD cmake/fuzz.sh build > "$WORK/build.log" 2>&1 \
   || ! FUZZ_BUILD=$FUZZ_BUILD-plain FUZZ_SANITIZE=none cmake/fuzz.sh build > "$WORK/build.log" 2>&1; then
  echo "bench_fuzz_rates: skipped: $(grep -m1 'ERROR' "$WORK/build.log" || echo 'building the fuzz targets failed')"
  exit 0
fi

# The trivial target, built with each flag set the example targets use.
printf '#include <cstddef>\n#include <cstdint>\nextern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* d, std::size_t n) {\n  return n > 2 && d[0] == 1 && d[1] == 2 ? 1 : 0;\n}\n' > "$WORK/trivial.cpp"
clang++ -O2 -g -fsanitize=fuzzer,address,undefined "$WORK/trivial.cpp" -o "$WORK/trivial_asan"
clang++ -O2 -g -fsanitize=fuzzer "$WORK/trivial.cpp" -o "$WORK/trivial_plain"

# rate LABEL BINARY [seed]: one row.
rate() {
  local label=$1 bin=$2 corpus=$WORK/corpus
  rm -rf "$corpus"
  mkdir -p "$corpus"
  [[ ${3:-} == seed ]] && "$bin" -merilo_seed="$corpus" > /dev/null 2>&1
  local t0 t1 c0 c1
  t0=$(date +%s.%N)
  read -r c0 < <(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
  ( "$bin" "$corpus" -seed=1 -runs="$RATE_RUNS" > "$WORK/rate.log" 2>&1 || true )
  read -r c1 < <(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
  t1=$(date +%s.%N)
  local tick
  tick=$(getconf CLK_TCK)
  awk -v l="$label" -v n="$RATE_RUNS" -v c="$(( c1 - c0 ))" -v k="$tick" -v a="$t0" -v b="$t1" \
    'BEGIN { printf "| %-44s | %10.0f | %10.0f |\n", l, n / (c > 0 ? c / k : 1e-9), n / (b - a) }'
}

row_set() {  # $1 suffix, $2 fuzz-bin dir, $3 trivial binary
  local t
  rate "trivial target ($1)" "$3"
  for t in $(cat "$2/targets.txt"); do
    [[ -x $2/$t ]] && rate "$t ($1)" "$2/$t" seed
  done
}

echo "== libFuzzer execs/s: $RATE_RUNS inputs each, -seed=1, seeded corpus (trivial: empty corpus)"
echo "| target (build) | execs/CPU-s | execs/wall-s |"
echo "|---|---|---|"
[[ -n ${BEFORE:-} ]] && row_set "ASan+UBSan, before" "$BEFORE" "$WORK/trivial_asan"
row_set "ASan+UBSan" "$FUZZ_BUILD/fuzz-bin" "$WORK/trivial_asan"
[[ -n ${BEFORE_PLAIN:-} ]] && row_set "no sanitizers, before" "$BEFORE_PLAIN" "$WORK/trivial_plain"
row_set "no sanitizers" "$FUZZ_BUILD-plain/fuzz-bin" "$WORK/trivial_plain"
