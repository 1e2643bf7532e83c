#!/usr/bin/env bash
# ci.sh [STEP...] — what `make ci` checks before a release, each step in its
# own build directory. With no STEP, every step in this order:
#
#   clang        clang++, -Werror, every test (the consumer tests run here)
#   asan         AddressSanitizer + UBSan (clang++), every test
#   tsan         ThreadSanitizer (clang++), every test labelled `threads`
#                (`make tsan` runs this step alone)
#   m32          g++ -m32: a 32-bit x86 build, every test
#   lint         clang-format, clang-tidy and the rules checker (cmake/lint.sh)
#   docs         the API reference (Doxygen); any warning fails (cmake/docs.sh)
#   fuzz-seeded  fuzzing seeded by a bounded search finds each seeded bug
#   fuzz         every fuzz target fuzzed for CI_FUZZTIME seconds (default 10)
#   coverage     g++ --coverage -O0, -Werror, every test, a summary of line
#                and branch coverage per component (gcovr), saved to build-ci-cov/
#
# and, on request only (`make ci CI_STEPS=gcc`):
#
#   gcc          g++ -O2, -Werror, every test. Not in the default list: the
#                g++ warnings are errors in m32 (-O2) and coverage (-O0), and
#                every test runs under g++ in both and in `make test` (-O1),
#                so a fourth g++ build bought no check the others lack and
#                cost a sixth of the run (docs/design/ci.md).
#
# Every step runs even when an earlier one failed, so one run reports them
# all; the summary at the end names each step's result, and the exit
# status is 1 when any failed. Each step's output goes to the terminal and
# to build-ci-logs/<step>.log. `.ci/run` is the fast path (the README's
# test command); this is the release gate.
set -uo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
all_steps=(clang asan tsan m32 lint docs fuzz-seeded fuzz coverage)
known_steps=(gcc "${all_steps[@]}")
steps=("$@")
[[ ${#steps[@]} -eq 0 ]] && steps=("${all_steps[@]}")
mkdir -p build-ci-logs

# Ninja when it is installed and the directory is new (an existing build
# directory keeps the generator it was made with).
configure_build() {
  local dir=$1 cxx=$2; shift 2
  local generator=()
  if command -v ninja > /dev/null && [[ ! -f $dir/CMakeCache.txt ]]; then generator=(-G Ninja); fi
  CXX=$cxx cmake -S . -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMERILO_WERROR=ON \
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON "$@" > /dev/null &&
    cmake --build "$dir" -j "$jobs"
}

step_gcc() {
  configure_build build-ci-gcc g++ &&
    ctest --test-dir build-ci-gcc --output-on-failure -j "$jobs"
}

step_clang() {
  configure_build build-ci-clang clang++ &&
    ctest --test-dir build-ci-clang --output-on-failure -j "$jobs"
}

step_asan() {
  configure_build build-ci-asan clang++ -DMERILO_SANITIZE=address,undefined &&
    ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build-ci-asan --output-on-failure -j "$jobs" \
      -LE consumer
}

# Every test whose merilo_test() names the label `threads` (see
# cmake/MeriloWarnings.cmake): the target threads_tests builds exactly those.
step_tsan() {
  CXX=clang++ cmake -S . -B build-ci-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DMERILO_SANITIZE=thread > /dev/null &&
    cmake --build build-ci-tsan -j "$jobs" --target threads_tests &&
    TSAN_OPTIONS=halt_on_error=1 ctest --test-dir build-ci-tsan --output-on-failure -j "$jobs" \
      -L threads --no-tests=error
}

# 32-bit x86: size_t is 32 bits, so a count kept in one wraps at 2^32 and a
# 64-bit value stored in one is a -Wconversion warning. The i386 builds of
# fmt, xxhash and googletest come from Debian (cmake/deps.sh m32). The
# consumer tests install merilo and build against it with the host's
# default flags, and the fuzz-engine smoke tests build 64-bit trees of
# their own with clang, so both are left to the 64-bit steps, and so is the
# Catch2 glue's test: Debian has no i386 build of Catch2's main library
# (doctest is a header and is tested here too). Warnings are
# errors here too (CI_M32_WERROR=OFF lists them without failing the step);
# docs/design/ci.md says what the first 32-bit runs found.
# Byte 4 of an ELF header is its class: 1 for 32-bit, 2 for 64-bit.
is_32_bit() {
  [[ $(od -An -tu1 -j4 -N1 "$1" | tr -d ' ') == 1 ]] ||
    { echo "ci.sh: $1 is not a 32-bit program; -m32 did not take" >&2; return 1; }
}

step_m32() {
  cmake/deps.sh m32 &&
    PKG_CONFIG_LIBDIR=/usr/lib/i386-linux-gnu/pkgconfig:/usr/share/pkgconfig \
      configure_build build-ci-m32 g++ -DCMAKE_CXX_FLAGS=-m32 -DCMAKE_EXE_LINKER_FLAGS=-m32 \
      -DCMAKE_SHARED_LINKER_FLAGS=-m32 -DCMAKE_LIBRARY_ARCHITECTURE=i386-linux-gnu \
      -DCMAKE_DISABLE_FIND_PACKAGE_Catch2=ON \
      -DMERILO_WERROR="${CI_M32_WERROR:-ON}" 2>&1 | tee build-ci-logs/m32-build.log &&
    echo "m32: $(grep -c 'warning:' build-ci-logs/m32-build.log) compiler warnings (listed above)" &&
    is_32_bit build-ci-m32/examples/fib/fib &&
    ctest --test-dir build-ci-m32 --output-on-failure -j "$jobs" -LE "consumer|fuzz-engines"
}

step_lint() {
  cmake/deps.sh lint &&
    { [[ -f build-ci-clang/compile_commands.json ]] ||
      CXX=clang++ cmake -S . -B build-ci-clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DMERILO_WERROR=ON -DCMAKE_EXPORT_COMPILE_COMMANDS=ON > /dev/null; } &&
    cmake/lint.sh build-ci-clang
}

step_docs() { cmake/deps.sh docs && cmake/docs.sh build-ci-docs; }

step_fuzz_seeded() { make --no-print-directory fuzz-seeded; }

step_fuzz() { make --no-print-directory fuzz FUZZTIME="${CI_FUZZTIME:-10}"; }

step_coverage() {
  cmake/deps.sh coverage &&
    CXX=g++ cmake -S . -B build-ci-cov -DCMAKE_BUILD_TYPE=Debug -DMERILO_WERROR=ON \
      -DCMAKE_CXX_FLAGS="--coverage -O0 -fprofile-update=atomic" \
      -DCMAKE_EXE_LINKER_FLAGS=--coverage > /dev/null &&
    cmake --build build-ci-cov -j "$jobs" &&
    find build-ci-cov -name '*.gcda' -delete &&
    ctest --test-dir build-ci-cov --output-on-failure -j "$jobs" -LE consumer &&
    cmake/coverage.sh build-ci-cov
}

declare -A result
status=0
for s in "${steps[@]}"; do
  fn=step_${s//-/_}
  if ! declare -F "$fn" > /dev/null; then
    echo "ci.sh: unknown step '$s' (steps: ${known_steps[*]})" >&2
    exit 2
  fi
  printf '\n=== ci: %s\n' "$s"
  start=$SECONDS
  if "$fn" 2>&1 | tee "build-ci-logs/$s.log"; then
    result[$s]="passed ($((SECONDS - start)) s)"
  else
    result[$s]="FAILED ($((SECONDS - start)) s, log: build-ci-logs/$s.log)"
    status=1
  fi
done

printf '\n=== ci: summary\n'
for s in "${steps[@]}"; do printf '  %-12s %s\n' "$s" "${result[$s]}"; done
if [[ $status -eq 0 ]]; then
  printf '=== ci: all steps passed\n'
else
  printf '=== ci: some steps FAILED\n'
fi
exit $status
