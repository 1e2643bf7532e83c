# merilo — the developer's front door. Every target checks (and, as root,
# installs) its own dependencies first. See README.md.
#
#   make explore   build and run every example's exhaustive search
#   make test      build and run every test (ctest)
#   make fuzz      build the fuzz targets with libFuzzer and run each FUZZTIME s
#   make bench     build and run the benchmarks
#   make lint      clang-format check and clang-tidy
#   make ci        all of it with g++ and clang++, -Werror, and sanitizers

BUILD    ?= build
JOBS     ?= $(shell nproc)
CMAKE_FLAGS ?=
BUILD_TYPE ?= RelWithDebInfo
DEPS     := cmake/deps.sh

.PHONY: all deps build test explore fuzz fuzz-seeded bench lint format ci clean install-check

all: build

deps:
	@$(DEPS) base

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DCMAKE_EXPORT_COMPILE_COMMANDS=ON $(CMAKE_FLAGS)

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

# make fuzz: every example's fuzz target, built with clang and
# -fsanitize=fuzzer,address,undefined in build-fuzz/, seeded from its
# exhaustive search, fuzzed FUZZTIME seconds each (default 30). Corpora,
# crashes and logs go to fuzz-out/<target>/; a violation's trace is printed.
FUZZTIME ?= 30
fuzz:
	@$(DEPS) base clang
	@FUZZTIME=$(FUZZTIME) JOBS=$(JOBS) cmake/fuzz.sh run

# make fuzz-seeded: each seeded bug, beyond a search bounded too small to
# reach it, must be found by seeded libFuzzer within a fixed number of
# executions (-seed fixed), and its saved input must replay the same trace.
fuzz-seeded:
	@$(DEPS) base clang
	@JOBS=$(JOBS) cmake/fuzz.sh seeded

ci:
	@$(DEPS) base clang lint
	cmake/ci.sh

clean:
	rm -rf $(BUILD) build-*
