#!/bin/bash -eu
# build.sh — builds every merilo fuzz target as OSS-Fuzz and
# ClusterFuzzLite expect: with their $CC/$CXX, $CFLAGS/$CXXFLAGS (coverage
# instrumentation and sanitizers) and $LIB_FUZZING_ENGINE, into $OUT, each
# with `<target>_seed_corpus.zip` (the explorer's seeds), `<target>.dict`
# (its kinds' encodings) and `<target>.options` (libFuzzer's keep_seed=1).
#
# Run from the repository root (the image's WORKDIR). $WORK, when set, holds
# the build tree. The seeded-bug targets (fuzz-bin/seeded-bugs.txt) are
# bugs planted on purpose for `make fuzz-seeded`: they are built, but not
# copied to $OUT, where every run would report them.
src=${MERILO_SRC:-$PWD}
build=${WORK:-/tmp}/merilo-fuzz-build
jobs=${MERILO_JOBS:-$(nproc)}
: "${CC:?}" "${CXX:?}" "${CXXFLAGS:?}" "${LIB_FUZZING_ENGINE:?}" "${OUT:?}"

cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
  -DMERILO_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" -DMERILO_BUILD_TESTS=OFF \
  -DMERILO_BUILD_TOOLS=OFF -DMERILO_INSTALL=OFF -DMERILO_COMPONENTS="fsm;core;explore;fuzz"
cmake --build "$build" -j "$jobs" --target fuzz_targets

mkdir -p "$OUT"
while read -r target; do
  [[ -n $target ]] || continue
  cp "$build/fuzz-bin/$target" "$OUT/$target"
  seeds=$build/seeds/$target
  rm -rf "$seeds"
  "$build/fuzz-bin/$target" -merilo_seed="$seeds"
  rm -f "$OUT/${target}_seed_corpus.zip"
  (cd "$seeds" && zip -q -j "$OUT/${target}_seed_corpus.zip" ./*)
  "$build/fuzz-bin/$target" -merilo_dict="$OUT/$target.dict"
  # libFuzzer drops a seed that adds no coverage, and the explorer's seeds
  # are combinations of states that coverage does not tell apart: keep them.
  printf '[libfuzzer]\nkeep_seed = 1\n' > "$OUT/$target.options"
done < "$build/fuzz-bin/targets.txt"
