#!/usr/bin/env bash
# fuzz.sh build|run|seeded — builds merilo's fuzz targets with clang and
# libFuzzer (-fsanitize=fuzzer,address,undefined) and runs them.
#
#   build    configure and build every fuzz target in $FUZZ_BUILD
#   run      (make fuzz) seed each example target from its exhaustive search,
#            fuzz it for $FUZZTIME seconds, print any violation's trace
#   seeded   (make fuzz-seeded) for each seeded-bug target: a search bounded
#            too small to reach the bug seeds the corpus, then libFuzzer with
#            a fixed -seed must find the bug within the target's budget of
#            executions, and replaying the saved input must print the same
#            trace
#
# Environment: FUZZTIME (seconds per target, default 30), FUZZ_ONLY (an
# extended regex: `run` fuzzes only the targets whose names match), FUZZ_BUILD
# (default build-fuzz), FUZZ_OUT (default fuzz-out), FUZZ_SEED (libFuzzer
# -seed for `seeded`, default 1), JOBS (build parallelism, default nproc).
# Everything a run writes goes under $FUZZ_OUT/<target>/: corpus/, crashes/
# and fuzz.log.
set -euo pipefail

mode=${1:-}
BUILD=${FUZZ_BUILD:-build-fuzz}
OUT=${FUZZ_OUT:-fuzz-out}
FUZZTIME=${FUZZTIME:-30}
FUZZ_SEED=${FUZZ_SEED:-1}
JOBS=${JOBS:-$(nproc)}
BIN=$BUILD/fuzz-bin

die() { echo "merilo fuzz: ERROR: $*" >&2; exit 2; }

check_toolchain() {
  command -v clang++ > /dev/null || die "clang++ is missing (Debian package clang; run cmake/deps.sh base clang)"
  local probe
  probe=$(mktemp -d)
  printf '#include <cstddef>\n#include <cstdint>\nextern "C" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }\n' > "$probe/p.cpp"
  if ! clang++ -fsanitize=fuzzer,address,undefined "$probe/p.cpp" -o "$probe/p" > "$probe/log" 2>&1; then
    cat "$probe/log" >&2
    rm -rf "$probe"
    die "clang++ cannot link libFuzzer with AddressSanitizer/UBSan (Debian package libclang-rt-dev; run cmake/deps.sh base clang)"
  fi
  rm -rf "$probe"
}

build() {
  check_toolchain
  if [[ ! -f $BUILD/CMakeCache.txt ]]; then
    mkdir -p "$BUILD"
    CXX=clang++ cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMERILO_FUZZ=ON \
      -DMERILO_SANITIZE=address,undefined -DMERILO_BUILD_TESTS=OFF -DMERILO_BUILD_TOOLS=ON \
      -DMERILO_INSTALL=OFF > "$BUILD/configure.log" 2>&1 \
      || { cat "$BUILD/configure.log"; rm -f "$BUILD/CMakeCache.txt"; die "configuring $BUILD failed"; }
  fi
  cmake --build "$BUILD" -j "$JOBS" --target fuzz_targets > "$BUILD/fuzz-build.log" 2>&1 \
    || { cat "$BUILD/fuzz-build.log"; die "building the fuzz targets failed"; }
}

# The violation lines and the replay test a target printed to $1.
show_finding() {
  sed -n '/^==merilo== ERROR/,/^}$/p' "$1"
}

run() {
  build
  local status=0 t targets
  targets=$(grep -E "${FUZZ_ONLY:-.}" "$BIN/targets.txt" || true)
  echo "merilo fuzz: $(grep -c . <<< "$targets") targets, ${FUZZTIME}s each; each writes $OUT/<target>/corpus/, crashes/ and fuzz.log"
  while read -r t; do
    [[ -n $t ]] || continue
    local d=$OUT/$t
    mkdir -p "$d/corpus" "$d/crashes"
    "$BIN/$t" -merilo_seed="$d/corpus" 2>&1 | grep -v '^merilo: complete' || { status=1; continue; }
    set +e
    "$BIN/$t" "$d/corpus" -max_total_time="$FUZZTIME" -artifact_prefix="$d/crashes/" \
      -print_final_stats=1 > "$d/fuzz.log" 2>&1
    local rc=$?
    set -e
    local execs rate
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$d/fuzz.log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$d/fuzz.log")
    if [[ $rc -eq 0 ]]; then
      echo "merilo fuzz: $t: no violation in ${execs:-?} executions (${rate:-?}/s); corpus $d/corpus"
    else
      status=1
      local crash
      crash=$(sed -n "s/.*Test unit written to //p" "$d/fuzz.log" | tail -1)
      echo "merilo fuzz: $t: FOUND A VIOLATION (exit $rc); the input is saved in ${crash:-$d/crashes/}"
      show_finding "$d/fuzz.log"
      [[ -z $(show_finding "$d/fuzz.log") ]] && tail -30 "$d/fuzz.log"
      echo "reproduce it with: $BIN/$t ${crash:-$d/crashes/<file>}"
    fi
  done <<< "$targets"
  exit $status
}

seeded() {
  build
  local status=0 t kind runs
  while read -r t kind runs; do
    [[ -n $t ]] || continue
    local d=$OUT/seeded/$t
    rm -rf "$d"
    mkdir -p "$d/corpus" "$d/crashes"
    if ! "$BIN/$t" -merilo_seed="$d/corpus" > "$d/seed.log" 2>&1 || ! grep -q 'search complete=false' "$d/seed.log"; then
      cat "$d/seed.log"
      echo "merilo fuzz-seeded: $t: FAIL: the seeding search must stop short of the bug (complete=false, no violation)"
      status=1
      continue
    fi
    local summary
    summary=$(sed -n 's/^merilo fuzz: seeded [^ ]* with \([0-9]*\) inputs.*search \(complete=[a-z]* depth=[0-9]* states=[0-9]*\).*/\1 seeds, \2/p' "$d/seed.log")
    set +e
    "$BIN/$t" "$d/corpus" -seed="$FUZZ_SEED" -runs="$runs" -artifact_prefix="$d/crashes/" \
      -print_final_stats=1 > "$d/fuzz.log" 2>&1
    local rc=$?
    set -e
    local crash
    crash=$(sed -n "s/.*Test unit written to //p" "$d/fuzz.log" | tail -1)
    if [[ $rc -eq 0 || -z $crash ]] || ! grep -q "^==merilo== ERROR: fuzz target [A-Za-z]* found $kind" "$d/fuzz.log"; then
      tail -20 "$d/fuzz.log"
      echo "merilo fuzz-seeded: $t: FAIL: no $kind violation within $runs executions (seeded by $summary)"
      status=1
      continue
    fi
    # Replaying the saved input must reproduce the same trace.
    "$BIN/$t" -runs=1 "$crash" > "$d/replay.log" 2>&1 || true
    local found replayed execs
    found=$(grep -m1 'merilo::explore::Trace{' "$d/fuzz.log")
    replayed=$(grep -m1 'merilo::explore::Trace{' "$d/replay.log" || true)
    if [[ "$found" != "$replayed" ]]; then
      echo "merilo fuzz-seeded: $t: FAIL: replaying $crash printed another trace:"
      echo "  found:    $found"
      echo "  replayed: $replayed"
      status=1
      continue
    fi
    execs=$(sed -n 's/^==merilo== input of .*; execution \([0-9]*\) of this process/\1/p' "$d/fuzz.log" | head -1)
    local trace=${found#*Trace}
    echo "merilo fuzz-seeded: $t: ok: seeded by $summary (no violation); fuzzing found the $kind after $execs of at most $runs executions (-seed=$FUZZ_SEED); replaying $crash reproduces ${trace%);}"
  done < "$BIN/seeded-bugs.txt"
  [[ $status -eq 0 ]] && echo "merilo fuzz-seeded: every seeded bug was found beyond its seeding search; inputs in $OUT/seeded/"
  exit $status
}

case $mode in
  build) build ;;
  run) run ;;
  seeded) seeded ;;
  *) echo "usage: cmake/fuzz.sh build|run|seeded" >&2; exit 2 ;;
esac
