# merilo — the developer's front door. Every target checks (and, as root,
# installs) its own dependencies first. See README.md.
#
#   make explore   build and run every example's exhaustive search
#   make test      build and run every test (ctest)
#   make fuzz      build the fuzz targets with libFuzzer and run each FUZZTIME s
#                  (JOBS=N: libFuzzer -fork=N); fuzz-merge minimises the
#                  corpora; fuzz-afl runs the same targets under AFL++
#   make bench     build and run the benchmarks
#   make lint      clang-format check and clang-tidy
#   make tsan      ThreadSanitizer on the multi-threaded tests (label `threads`)
#   make ci        all of it with g++ and clang++, -Werror, and sanitizers

BUILD    ?= build
JOBS     ?= $(shell nproc)
CMAKE_FLAGS ?=
# `Test` (defined in CMakeLists.txt): -O1 without debug info. The tests are
# template-heavy and cheap to run, so compiling is nearly all of `make test`;
# -O1 -g0 compiles in about half the time of -O2 -g. BUILD_TYPE=Debug or
# RelWithDebInfo gives a build to debug in; `make ci` builds RelWithDebInfo.
BUILD_TYPE ?= Test
GENERATOR := $(if $(shell command -v ninja),-G Ninja,)
DEPS     := cmake/deps.sh

.PHONY: all deps build test explore fuzz fuzz-seeded fuzz-merge fuzz-afl bench lint format ci clean install-check tsan

all: build

deps:
	@$(DEPS) base

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) $(GENERATOR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DCMAKE_EXPORT_COMPILE_COMMANDS=ON $(CMAKE_FLAGS)

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# The build shows its progress (the first one takes about a minute); each
# program then prints one summary line per search, and for a variant with a
# seeded bug an "expected finding (seeded bug)" line and its trace.
explore: deps $(BUILD)/CMakeCache.txt
	@echo "== building the examples' explore programs"
	@GNUMAKEFLAGS=--no-print-directory cmake --build $(BUILD) -j $(JOBS) --target explore
	@echo "== exploring every example"
	@status=0; for p in $(BUILD)/explore-bin/*_explore; do "$$p" 2>&1 || status=1; done; exit $$status

bench:
	@$(DEPS) base bench
	cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DMERILO_BUILD_BENCH=ON $(CMAKE_FLAGS)
	cmake --build build-bench -j $(JOBS)
	@for p in build-bench/bench-bin/bench_*; do echo "== $$p"; "$$p" || exit 1; done
	@echo "== merilo vs SPIN"; bench/explore/vs_spin.sh build-bench/bench-bin/bench_explore

lint:
	@$(DEPS) base lint
	@$(MAKE) --no-print-directory $(BUILD)/CMakeCache.txt
	cmake/lint.sh $(BUILD)

format:
	@$(DEPS) lint
	git ls-files '*.hpp' '*.cpp' | xargs clang-format -i

# make fuzz: every fuzz target — each example's, seeded from its exhaustive
# search, and merilo's own parsers' (tools/selffuzz, seeded from
# tests/tools/data) — built with clang and -fsanitize=fuzzer,address,undefined
# in build-fuzz/, fuzzed FUZZTIME seconds each (default 30), with libFuzzer's
# -fork=$(JOBS) when JOBS > 1 (default nproc). Corpora,
# crashes and logs go to fuzz-out/<target>/; a violation's trace is printed.
FUZZTIME ?= 30
fuzz:
	@$(DEPS) base clang
	@FUZZTIME=$(FUZZTIME) JOBS=$(JOBS) cmake/fuzz.sh run

# make fuzz-merge: minimise each target's fuzz-out/<target>/corpus with
# libFuzzer's -merge=1 (the smallest subset with the same coverage).
fuzz-merge:
	@$(DEPS) base clang
	@JOBS=$(JOBS) cmake/fuzz.sh merge

# make fuzz-afl: the same targets built with afl-clang-fast++ and AFL++'s
# libFuzzer driver in build-fuzz-afl/, seeded, and fuzzed by afl-fuzz for
# FUZZTIME seconds each (needs the Debian package afl++).
fuzz-afl:
	@$(DEPS) base clang
	@FUZZTIME=$(FUZZTIME) JOBS=$(JOBS) cmake/fuzz.sh afl

# make fuzz-seeded: each seeded bug, beyond a search bounded too small to
# reach it, must be found by seeded libFuzzer within a fixed number of
# executions (-seed fixed), and its saved input must replay the same trace.
fuzz-seeded:
	@$(DEPS) base clang
	@JOBS=$(JOBS) cmake/fuzz.sh seeded

# make tsan: the tests labelled `threads` (the parallel tester, its
# examples and the fsm bridge) built with clang++ -fsanitize=thread in
# build-tsan/ and run with halt_on_error.
TSAN_TARGETS := parallel_tests parallel_machine_tests counter_test bank_test stack_test
tsan:
	@$(DEPS) base clang
	CXX=clang++ cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DMERILO_SANITIZE=thread $(CMAKE_FLAGS)
	cmake --build build-tsan -j $(JOBS) --target $(TSAN_TARGETS)
	TSAN_OPTIONS=halt_on_error=1 ctest --test-dir build-tsan --output-on-failure -j $(JOBS) -L threads

ci:
	@$(DEPS) base clang lint
	cmake/ci.sh

clean:
	rm -rf $(BUILD) build-*
