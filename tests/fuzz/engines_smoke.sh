#!/usr/bin/env bash
# engines_smoke.sh fork|cflite|afl SOURCE_DIR WORK_DIR — a few seconds of
# each way merilo's fuzz targets scale out on existing engines (ctest runs
# it; docs/fuzz.md describes each):
#
#   fork    `make fuzz JOBS=2`: libFuzzer's -fork=2 on one target, then
#           `make fuzz-merge` minimising the corpus it grew
#   cflite  .clusterfuzzlite/build.sh run as OSS-Fuzz runs it (clang,
#           $CXXFLAGS with -fsanitize=fuzzer-no-link, $LIB_FUZZING_ENGINE,
#           $OUT), then every target in $OUT for 2 seconds on its seed zip
#   afl     `make fuzz-afl` on one target (afl-clang-fast++, AFL++'s driver)
#
# Exits 77 (ctest: skipped) with a message when a tool is missing.
set -euo pipefail
mode=$1
src=$2
work=$3
skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

have_libfuzzer() {
  command -v clang++ > /dev/null || return 1
  local probe
  probe=$(mktemp -d)
  printf '#include <cstddef>\n#include <cstdint>\nextern "C" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }\n' > "$probe/p.cpp"
  clang++ -fsanitize=fuzzer "$probe/p.cpp" -o "$probe/p" > /dev/null 2>&1
  local rc=$?
  rm -rf "$probe"
  return $rc
}

mkdir -p "$work"
cd "$src"
case $mode in
  fork)
    have_libfuzzer || skip "clang++ with libFuzzer is missing (Debian packages clang libclang-rt-dev)"
    export FUZZ_BUILD=$work/build FUZZ_OUT=$work/out FUZZ_TARGETS=relay_fuzz FUZZ_SANITIZE=none
    rm -rf "$FUZZ_OUT"
    JOBS=2 FUZZTIME=4 cmake/fuzz.sh run | tee "$work/run.txt"
    grep -q 'relay_fuzz: no violation in [0-9]* executions (.*-fork=2' "$work/run.txt" \
      || fail "make fuzz JOBS=2 printed no summary of a -fork=2 run"
    grep -q -- '-fork=2' "$FUZZ_OUT/relay_fuzz/fuzz.log" || fail "libFuzzer did not run with -fork=2"
    seeds=$(find "$FUZZ_OUT/relay_fuzz/corpus" -name 'merilo-seed-*' | wc -l)
    grown=$(find "$FUZZ_OUT/relay_fuzz/corpus" -type f | wc -l)
    [[ $grown -gt $seeds ]] || fail "the forked workers merged nothing into the corpus ($grown files, $seeds seeds)"
    JOBS=2 cmake/fuzz.sh merge | tee "$work/merge.txt"
    grep -q "relay_fuzz: $grown -> [0-9]* inputs" "$work/merge.txt" || fail "make fuzz-merge printed no summary"
    after=$(find "$FUZZ_OUT/relay_fuzz/corpus" -type f | wc -l)
    [[ $after -ge 1 && $after -le $grown ]] || fail "the merged corpus has $after inputs (was $grown)"
    kept=$(find "$FUZZ_OUT/relay_fuzz/corpus" -name 'merilo-seed-*' | wc -l)
    [[ $kept -eq $seeds ]] || fail "make fuzz-merge dropped explorer seeds ($kept of $seeds left)"
    echo "ok: -fork=2 grew the corpus from $seeds seeds to $grown inputs; -merge=1 kept $after, all $seeds seeds among them"
    ;;
  cflite)
    have_libfuzzer || skip "clang++ with libFuzzer is missing (Debian packages clang libclang-rt-dev)"
    command -v zip > /dev/null || skip "zip is missing (Debian package zip)"
    command -v unzip > /dev/null || skip "unzip is missing (Debian package unzip)"
    rm -rf "$work/out" "$work/work"
    mkdir -p "$work/out" "$work/work"
    CC=clang CXX=clang++ CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=fuzzer-no-link" \
      CXXFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=fuzzer-no-link" \
      LIB_FUZZING_ENGINE="-fsanitize=fuzzer" OUT="$work/out" WORK="$work/work" MERILO_JOBS=2 \
      bash .clusterfuzzlite/build.sh > "$work/build.log" 2>&1 || { tail -30 "$work/build.log"; fail "build.sh failed"; }
    targets=$(cat "$work/work/merilo-fuzz-build/fuzz-bin/targets.txt")
    [[ -n $targets ]] || fail "no targets listed"
    for t in $targets; do
      [[ -x $work/out/$t ]] || fail "build.sh did not put $t in \$OUT"
      [[ -s $work/out/${t}_seed_corpus.zip ]] || fail "build.sh wrote no ${t}_seed_corpus.zip"
      [[ -s $work/out/$t.dict ]] || fail "build.sh wrote no $t.dict"
      grep -qx 'keep_seed = 1' "$work/out/$t.options" 2> /dev/null || fail "build.sh wrote no $t.options with keep_seed = 1"
      rm -rf "$work/corpus/$t"
      mkdir -p "$work/corpus/$t"
      unzip -q "$work/out/${t}_seed_corpus.zip" -d "$work/corpus/$t"
      # As OSS-Fuzz would: the [libfuzzer] options of $t.options become flags.
      "$work/out/$t" "$work/corpus/$t" -dict="$work/out/$t.dict" -keep_seed=1 -max_total_time=2 \
        > "$work/$t.log" 2>&1 || { tail -30 "$work/$t.log"; fail "$t failed in its run"; }
      grep -q 'Done [0-9]* runs' "$work/$t.log" || fail "$t: libFuzzer did not finish its run"
      n=$(unzip -Z1 "$work/out/${t}_seed_corpus.zip" | wc -l)
      loaded=$(sed -n 's/.*INITED .* corp: \([0-9]*\)\/.*/\1/p' "$work/$t.log")
      [[ ${loaded:-0} -ge $n ]] || fail "$t: libFuzzer kept ${loaded:-no} of the $n seeds"
      echo "ok: $t: $n seeds, all kept; $(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$work/$t.log")"
    done
    ;;
  afl)
    command -v afl-clang-fast++ > /dev/null && command -v afl-fuzz > /dev/null \
      || skip "AFL++ is missing (Debian package afl++)"
    [[ -f /usr/lib/afl/libAFLDriver.a ]] || skip "AFL++'s libFuzzer driver is missing (Debian package afl++)"
    export FUZZ_BUILD=$work/build FUZZ_OUT=$work/out FUZZ_TARGETS=relay_fuzz
    rm -rf "$FUZZ_OUT"
    JOBS=2 FUZZTIME=3 cmake/fuzz.sh afl | tee "$work/afl.txt"
    grep -q 'fuzz-afl: relay_fuzz: no violation in [1-9][0-9]* executions' "$work/afl.txt" \
      || fail "make fuzz-afl printed no clean run"
    ;;
  *)
    echo "usage: engines_smoke.sh fork|cflite|afl SOURCE_DIR WORK_DIR" >&2
    exit 2
    ;;
esac
