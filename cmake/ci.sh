#!/usr/bin/env bash
# ci.sh — everything `make ci` checks, each in its own build directory:
#   1. g++, -Werror, every test
#   2. clang++, -Werror, every test
#   3. AddressSanitizer + UBSan (clang++), every test
#   4. ThreadSanitizer (clang++), the multi-threaded parts (the explorer's
#      workers, and `make tsan`: every test labelled `threads`)
#   5. lint (clang-format, clang-tidy)
#   6. fuzzing seeded by the explorer finds the bug beyond the search
#   7. fuzzing merilo's own parsers (merilo-lincheck's history reader and
#      checker, the fuzz input decoder) finds nothing in SELF_FUZZTIME s each
# Stops at the first failure and says which step failed.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

step() { printf '\n=== ci: %s\n' "$*"; }
configure_build_test() {
  local dir=$1 cxx=$2; shift 2
  CXX=$cxx cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMERILO_WERROR=ON \
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON "$@" > /dev/null
  cmake --build "$dir" -j "$jobs"
}

step "g++ -Werror"
configure_build_test build-ci-gcc g++
ctest --test-dir build-ci-gcc --output-on-failure -j "$jobs"

step "clang++ -Werror"
configure_build_test build-ci-clang clang++
ctest --test-dir build-ci-clang --output-on-failure -j "$jobs"

step "AddressSanitizer + UBSan"
configure_build_test build-ci-asan clang++ -DMERILO_SANITIZE=address,undefined
ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build-ci-asan --output-on-failure -j "$jobs" -LE consumer

step "ThreadSanitizer"
# Only the multi-threaded parts: the explorer's worker threads here, then
# the parallel layer's tests (label `threads`) through `make tsan`.
CXX=clang++ cmake -S . -B build-ci-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMERILO_SANITIZE=thread \
  > /dev/null
cmake --build build-ci-tsan -j "$jobs" --target explore_tests order_test
TSAN_OPTIONS=halt_on_error=1 ctest --test-dir build-ci-tsan --output-on-failure -j "$jobs" \
  -R '^(Explorer|Order)\.'
make --no-print-directory tsan JOBS="$jobs"

step "lint"
cmake/lint.sh build-ci-clang

if grep -q '^fuzz-seeded:' Makefile; then
  step "fuzz-seeded"
  make --no-print-directory fuzz-seeded
fi
step "fuzzing merilo's own parsers"
FUZZTIME=${SELF_FUZZTIME:-60} FUZZ_ONLY='^(lincheck_history|fuzz_input)_fuzz$' cmake/fuzz.sh run
printf '\n=== ci: all steps passed\n'
