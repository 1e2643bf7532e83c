#!/usr/bin/env bash
# fuzz.sh build|run|seeded|merge|afl — builds merilo's fuzz targets with
# clang and libFuzzer (-fsanitize=fuzzer,address,undefined) or AFL++, and
# runs them.
#
#   build    configure and build every fuzz target in $FUZZ_BUILD
#   run      (make fuzz) seed each example target from its exhaustive search,
#            write its dictionary, fuzz it for $FUZZTIME seconds — with
#            JOBS > 1 in libFuzzer's own -fork=$JOBS mode (crash-resistant
#            worker processes that merge into the one corpus) — and print
#            any violation's trace
#   seeded   (make fuzz-seeded) builds only the seeded-bug targets (unless
#            FUZZ_TARGETS names others); for each: a search bounded
#            too small to reach the bug seeds the corpus, then libFuzzer with
#            a fixed -seed must find the bug within the target's budget of
#            executions, and replaying the saved input must print the same
#            trace
#   seeded-build  only the build of `seeded` (make ci builds ahead of time)
#   merge    (make fuzz-merge) minimise each target's corpus with libFuzzer's
#            -merge=1: keep the smallest set of inputs with the same coverage,
#            and every seed the explorer wrote (merilo-seed-*)
#   afl      (make fuzz-afl) build the same targets with afl-clang-fast++ and
#            AFL++'s libFuzzer driver in $FUZZ_BUILD-afl, seed each, and run
#            afl-fuzz on it for $FUZZTIME seconds
#   afl-build  only the build of `afl` (bench/fuzz/time_to_bug.sh uses it)
#
# Environment: FUZZTIME (seconds per target, default 30), FUZZ_ONLY (an
# extended regex: `run` fuzzes only the targets whose names match), FUZZ_BUILD
# (default build-fuzz), FUZZ_OUT (default fuzz-out), FUZZ_SEED (libFuzzer
# -seed for `seeded`, default 1), JOBS (build parallelism and -fork workers,
# default nproc), FUZZ_TARGETS (a space-separated subset of the targets to
# build and run; default all), FUZZ_SANITIZE (sanitizers of the libFuzzer
# build, default address,undefined; `none` for none), FUZZ_BENCH (ON: the
# tree also configures bench/, so bench/fuzz's hand-written twins of the
# targets can be built in it with the same flags; `build` and `afl` turn it
# on in an existing tree).
# Everything a run writes goes under $FUZZ_OUT/<target>/: corpus/, crashes/,
# kinds.dict and fuzz.log (afl/ for AFL++).
set -euo pipefail

mode=${1:-}
BUILD=${FUZZ_BUILD:-build-fuzz}
OUT=${FUZZ_OUT:-fuzz-out}
FUZZTIME=${FUZZTIME:-30}
FUZZ_SEED=${FUZZ_SEED:-1}
JOBS=${JOBS:-$(nproc)}
FUZZ_TARGETS=${FUZZ_TARGETS:-}
FUZZ_SANITIZE=${FUZZ_SANITIZE:-address,undefined}
BIN=$BUILD/fuzz-bin

die() { echo "merilo fuzz: ERROR: $*" >&2; exit 2; }

check_toolchain() {
  command -v clang++ > /dev/null || die "clang++ is missing (Debian package clang; run cmake/deps.sh base clang)"
  local probe
  probe=$(mktemp -d)
  printf '#include <cstddef>\n#include <cstdint>\nextern "C" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }\n' > "$probe/p.cpp"
  local flags=fuzzer
  [[ $FUZZ_SANITIZE != none ]] && flags+=",$FUZZ_SANITIZE"
  if ! clang++ -fsanitize="$flags" "$probe/p.cpp" -o "$probe/p" > "$probe/log" 2>&1; then
    cat "$probe/log" >&2
    rm -rf "$probe"
    die "clang++ cannot link -fsanitize=$flags (Debian package libclang-rt-dev; run cmake/deps.sh base clang)"
  fi
  rm -rf "$probe"
}

# Configures $BUILD for libFuzzer when it is new; an existing tree must
# be one (MERILO_FUZZ=ON).
configure_tree() {
  check_toolchain
  local sanitize=$FUZZ_SANITIZE
  [[ $sanitize == none ]] && sanitize=
  if [[ ! -f $BUILD/CMakeCache.txt ]]; then
    mkdir -p "$BUILD"
    CXX=clang++ cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMERILO_FUZZ=ON \
      -DMERILO_SANITIZE="$sanitize" -DMERILO_BUILD_TESTS=OFF -DMERILO_BUILD_TOOLS=ON \
      -DMERILO_INSTALL=OFF ${FUZZ_BENCH:+-DMERILO_BUILD_BENCH=$FUZZ_BENCH} > "$BUILD/configure.log" 2>&1 \
      || { cat "$BUILD/configure.log"; rm -f "$BUILD/CMakeCache.txt"; die "configuring $BUILD failed"; }
  elif ! grep -q '^MERILO_FUZZ:BOOL=ON$' "$BUILD/CMakeCache.txt"; then
    # An existing tree (make ci's clang step shares its own) must build
    # libFuzzer binaries, not replay drivers, or fuzzing would run nothing.
    die "$BUILD was configured without -DMERILO_FUZZ=ON: its fuzz targets are replay drivers; remove it or set FUZZ_BUILD to another directory"
  else
    bench_on
  fi
}

# With FUZZ_BENCH=ON, turns bench/ on in the existing tree $BUILD.
bench_on() {
  [[ ${FUZZ_BENCH:-} == ON ]] || return 0
  grep -q '^MERILO_BUILD_BENCH:BOOL=ON$' "$BUILD/CMakeCache.txt" && return 0
  cmake -DMERILO_BUILD_BENCH=ON "$BUILD" > "$BUILD/configure.log" 2>&1 \
    || { cat "$BUILD/configure.log"; die "configuring $BUILD with bench/ failed"; }
}

build() {
  configure_tree
  build_targets
}

# Builds $FUZZ_TARGETS, or every fuzz target, in the configured $BUILD.
build_targets() {
  local targets=(fuzz_targets)
  [[ -n $FUZZ_TARGETS ]] && read -r -a targets <<< "$FUZZ_TARGETS"
  cmake --build "$BUILD" -j "$JOBS" --target "${targets[@]}" > "$BUILD/fuzz-build.log" 2>&1 \
    || { cat "$BUILD/fuzz-build.log"; die "building the fuzz targets failed"; }
}

# Whether target $1 is one to run (in $FUZZ_TARGETS, or no subset given).
selected() {
  [[ -z $FUZZ_TARGETS ]] && return 0
  [[ " $FUZZ_TARGETS " == *" $1 "* ]]
}

# The violation lines and the replay test a target printed to $1.
show_finding() {
  sed -n '/^==merilo== ERROR/,/^}$/p' "$1"
}

# "<executions> <execs/s>" from a libFuzzer log (single process or -fork).
fuzz_stats() {
  local execs rate
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$1")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$1")
  if [[ -z $execs ]]; then  # -fork: the last status line, "#N: cov: ... exec/s: R ..."
    execs=$(sed -n 's/^#\([0-9]*\):* .*/\1/p' "$1" | tail -1)
    rate=$(sed -n 's/.*exec\/s:* \([0-9]*\).*/\1/p' "$1" | tail -1)
  fi
  echo "${execs:-?} ${rate:-?}"
}

run() {
  build
  local status=0 t targets fork=()
  targets=$(grep -E "${FUZZ_ONLY:-.}" "$BIN/targets.txt" || true)
  [[ $JOBS -gt 1 ]] && fork=(-fork="$JOBS")
  echo "merilo fuzz: $(grep -c . <<< "$targets") targets, ${FUZZTIME}s each${fork:+ with ${fork[0]}}; each writes $OUT/<target>/corpus/, crashes/ and fuzz.log"
  while read -r t; do
    [[ -n $t ]] || continue
    selected "$t" || continue
    local d=$OUT/$t
    mkdir -p "$d/corpus" "$d/crashes"
    "$BIN/$t" -merilo_seed="$d/corpus" 2>&1 | grep -v '^merilo: complete' || { status=1; continue; }
    "$BIN/$t" -merilo_dict="$d/kinds.dict" > /dev/null 2>&1 || { status=1; continue; }
    set +e
    local dict=()  # a target with no kinds (merilo's own parsers) writes an empty one
    [[ -s $d/kinds.dict ]] && dict=(-dict="$d/kinds.dict")
    "$BIN/$t" "$d/corpus" "${fork[@]}" "${dict[@]}" -keep_seed=1 -max_total_time="$FUZZTIME" \
      -artifact_prefix="$d/crashes/" -print_final_stats=1 > "$d/fuzz.log" 2>&1
    local rc=$?
    set -e
    local execs rate
    read -r execs rate < <(fuzz_stats "$d/fuzz.log")
    if [[ $rc -eq 0 ]]; then
      echo "merilo fuzz: $t: no violation in $execs executions ($rate/s${fork:+, ${fork[0]}}); corpus $d/corpus"
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

# Minimises every selected target's corpus in place with -merge=1.
merge() {
  build
  local status=0 t
  while read -r t; do
    [[ -n $t ]] || continue
    selected "$t" || continue
    local d=$OUT/$t
    if [[ ! -d $d/corpus ]]; then
      echo "merilo fuzz-merge: $t: no corpus in $d/corpus (run make fuzz first); skipped"
      continue
    fi
    rm -rf "$d/corpus.min"
    mkdir -p "$d/corpus.min"
    if ! "$BIN/$t" -merge=1 "$d/corpus.min" "$d/corpus" > "$d/merge.log" 2>&1; then
      tail -20 "$d/merge.log"
      echo "merilo fuzz-merge: $t: FAIL: libFuzzer -merge=1 failed (log $d/merge.log)"
      status=1
      continue
    fi
    # The explorer's seeds stay whatever their coverage: each is the shortest
    # schedule to a combination of states that coverage does not tell apart.
    # libFuzzer names what it keeps by the SHA-1 of its content, so a seed it
    # kept is there twice once the seed is back: drop that copy.
    local seed
    for seed in "$d"/corpus/merilo-seed-*; do
      [[ -f $seed ]] || continue
      rm -f "$d/corpus.min/$(sha1sum < "$seed" | cut -d' ' -f1)"
      cp "$seed" "$d/corpus.min/"
    done
    local before after
    before=$(find "$d/corpus" -type f | wc -l)
    after=$(find "$d/corpus.min" -type f | wc -l)
    rm -rf "$d/corpus"
    mv "$d/corpus.min" "$d/corpus"
    echo "merilo fuzz-merge: $t: $before -> $after inputs with the same coverage, every explorer seed kept; corpus $d/corpus"
  done < "$BIN/targets.txt"
  exit $status
}

# AFL++: the same targets, built with afl-clang-fast++ and linked with
# AFL++'s libFuzzer driver, fuzzed by afl-fuzz.
afl_build() {
  command -v afl-clang-fast++ > /dev/null && command -v afl-fuzz > /dev/null \
    || die "AFL++ is missing (Debian package afl++: apt-get install afl++)"
  local driver=${AFL_DRIVER:-/usr/lib/afl/libAFLDriver.a}
  [[ -f $driver ]] || die "AFL++'s libFuzzer driver $driver is missing (Debian package afl++)"
  BUILD=${BUILD}-afl
  BIN=$BUILD/fuzz-bin
  if [[ ! -f $BUILD/CMakeCache.txt ]]; then
    mkdir -p "$BUILD"
    CXX=afl-clang-fast++ cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DMERILO_FUZZ_ENGINE="$driver" -DMERILO_BUILD_TESTS=OFF -DMERILO_BUILD_TOOLS=OFF \
      -DMERILO_INSTALL=OFF ${FUZZ_BENCH:+-DMERILO_BUILD_BENCH=$FUZZ_BENCH} > "$BUILD/configure.log" 2>&1 \
      || { cat "$BUILD/configure.log"; rm -f "$BUILD/CMakeCache.txt"; die "configuring $BUILD failed"; }
  else
    bench_on
  fi
  build_targets
}

afl() {
  afl_build
  local status=0 t
  while read -r t; do
    [[ -n $t ]] || continue
    selected "$t" || continue
    local d=$OUT/afl/$t
    rm -rf "$d/afl"
    mkdir -p "$d/corpus"
    "$BIN/$t" -merilo_seed="$d/corpus" > "$d/seed.log" 2>&1 || { cat "$d/seed.log"; status=1; continue; }
    "$BIN/$t" -merilo_dict="$d/kinds.dict" > /dev/null 2>&1 || { status=1; continue; }
    local dict=()  # a target with no kinds (threads, parallel specs) writes an empty one
    [[ -s $d/kinds.dict ]] && dict=(-x "$d/kinds.dict")
    set +e
    # afl-fuzz refuses a caller's ASAN_OPTIONS that lack its own settings
    # (abort_on_error=1, symbolize=0; make ci's asan step sets
    # detect_leaks=1), so it runs without them and sets its own.
    env -u ASAN_OPTIONS -u UBSAN_OPTIONS -u MSAN_OPTIONS \
      AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
      afl-fuzz -i "$d/corpus" -o "$d/afl" "${dict[@]}" \
      -V "$FUZZTIME" -- "$BIN/$t" > "$d/afl.log" 2>&1
    local rc=$?
    set -e
    local stats=$d/afl/default/fuzzer_stats
    if [[ $rc -ne 0 || ! -f $stats ]]; then
      tail -30 "$d/afl.log"
      echo "merilo fuzz-afl: $t: FAIL: afl-fuzz exited $rc (log $d/afl.log)"
      status=1
      continue
    fi
    local execs rate crashes
    execs=$(sed -n 's/^execs_done *: *//p' "$stats")
    rate=$(sed -n 's/^execs_per_sec *: *//p' "$stats")
    crashes=$(find "$d/afl/default/crashes" -type f -name 'id:*' 2> /dev/null | wc -l)
    if [[ $crashes -eq 0 ]]; then
      echo "merilo fuzz-afl: $t: no violation in $execs executions ($rate/s); queue $d/afl/default/queue"
    else
      status=1
      local crash
      crash=$(find "$d/afl/default/crashes" -type f -name 'id:*' | sort | head -1)
      echo "merilo fuzz-afl: $t: FOUND $crashes crashing inputs; the first: $crash"
      "$BIN/$t" "$crash" 2>&1 | sed -n '/^==merilo== ERROR/,/^}$/p' || true
    fi
  done < "$BIN/targets.txt"
  exit $status
}

# Configures the tree and builds only the seeded-bug targets (listed at
# configure time) unless FUZZ_TARGETS names others. `make ci` runs this
# alone, beside an earlier step's tests, before `seeded` runs them.
seeded_build() {
  configure_tree
  if [[ -z $FUZZ_TARGETS ]]; then
    FUZZ_TARGETS=$(awk '{ printf "%s ", $1 }' "$BIN/seeded-bugs.txt")
    [[ -n $FUZZ_TARGETS ]] || die "$BIN/seeded-bugs.txt lists no seeded-bug target"
  fi
  build_targets
}

seeded() {
  seeded_build
  local status=0 t kind runs
  while read -r t kind runs; do
    [[ -n $t ]] || continue
    selected "$t" || continue
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
    # A threads or parallel target says "wrote N seeds ... search complete=...".
    [[ -n $summary ]] || summary=$(sed -n 's/^merilo fuzz: [^ ]* wrote \([0-9]*\) seeds.*search \(complete=[a-z]*\).*/\1 seeds, \2/p' "$d/seed.log")
    set +e
    "$BIN/$t" "$d/corpus" -keep_seed=1 -seed="$FUZZ_SEED" -runs="$runs" -artifact_prefix="$d/crashes/" \
      -print_final_stats=1 > "$d/fuzz.log" 2>&1
    local rc=$?
    set -e
    local crash
    crash=$(sed -n "s/.*Test unit written to //p" "$d/fuzz.log" | tail -1)
    if [[ $rc -eq 0 || -z $crash ]] || ! grep -q "^==merilo== ERROR: fuzz target [A-Za-z0-9_]* found $kind" "$d/fuzz.log"; then
      tail -20 "$d/fuzz.log"
      echo "merilo fuzz-seeded: $t: FAIL: no $kind violation within $runs executions (seeded by $summary)"
      status=1
      continue
    fi
    # Replaying the saved input must reproduce the same trace.
    "$BIN/$t" -runs=1 "$crash" > "$d/replay.log" 2>&1 || true
    local found replayed execs
    # A state-machine target prints its trace; a threads target, its pin; a
    # parallel target, its pf1 token.
    local pin_line='merilo::explore::Trace\{|options\.replay = |"pf1:'
    found=$(grep -m1 -E "$pin_line" "$d/fuzz.log")
    replayed=$(grep -m1 -E "$pin_line" "$d/replay.log" || true)
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
  seeded-build) seeded_build ;;
  merge) merge ;;
  afl) afl ;;
  afl-build) afl_build ;;
  *) echo "usage: cmake/fuzz.sh build|run|seeded|seeded-build|merge|afl|afl-build" >&2; exit 2 ;;
esac
