# merilo — the developer's front door. Every target checks (and, as root,
# installs) its own dependencies first. See README.md.
#
#   make explore   build and run every example's exhaustive search;
#                  MODE=simulate runs seeded random walks over the same
#                  systems instead, one summary line each (SEED=1
#                  WALKS=1000 DEPTH=100)
#   make explore-mpi  TwoPhase (RMS_MPI=7) on NP=4 Open MPI ranks, fixed and
#                  with its seeded bug (docs/explore.md, "On many machines")
#   make test      build and run every test (ctest) but the fuzz-engine
#                  smoke tests, which `make fuzz-engines` runs, and
#                  bench/proper's (ctest -L peers)
#   make fuzz      build the fuzz targets with libFuzzer and run each FUZZTIME s
#                  (JOBS=N: libFuzzer -fork=N); fuzz-merge minimises the
#                  corpora; fuzz-afl runs the same targets under AFL++
#   make bench     build and run the benchmarks
#   make bench-spin  merilo against SPIN on TwoPhase (RMS="8 9 10" ROUNDS=3)
#   make bench-proper  merilo's parallel tester against PropEr's parallel
#                  statem on four seeded races (CHECKS=100, ONLY=word)
#   make lint      clang-format check, the rules checker and clang-tidy
#   make docs      the API reference (Doxygen) in build-docs/html; fails on
#                  any Doxygen warning
#   make tsan      the multi-threaded tests (ctest label `threads`) under TSan
#   make ci        the release gate: clang++ -Werror under ASan+UBSan, TSan,
#                  a 32-bit g++ -Werror build that is also the coverage one,
#                  lint, docs, fuzzing (seeded and every target for
#                  CI_FUZZTIME s) (cmake/ci.sh)

BUILD    ?= build
JOBS     ?= $(shell nproc)
CMAKE_FLAGS ?=
# `Test` (defined in CMakeLists.txt): -O1 without debug info. The tests are
# template-heavy and cheap to run, so compiling is nearly all of `make test`;
# -O1 -g0 compiles in about half the time of -O2 -g. BUILD_TYPE=Debug or
# RelWithDebInfo gives a build to debug in; `make ci` builds -O0 under ASan,
# -O1 under TSan and -O0 for coverage, with assertions on (docs/design/ci.md).
BUILD_TYPE ?= Test
GENERATOR := $(if $(shell command -v ninja),-G Ninja,)
DEPS     := cmake/deps.sh

.PHONY: all deps build test docs fuzz-engines explore explore-mpi fuzz fuzz-seeded fuzz-merge fuzz-afl bench bench-fuzz-twins bench-fuzz-bugs bench-spin bench-proper lint format tsan ci clean install-check

all: build

deps:
	@$(DEPS) base

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) $(GENERATOR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DCMAKE_EXPORT_COMPILE_COMMANDS=ON $(CMAKE_FLAGS)

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

# Every test but the three fuzz-engine smoke tests (label fuzz-engines: each
# builds its own tree with clang or AFL++, 90 s of a fresh `make test`
# together; docs/design/build-time.md) and bench/proper's smoke tests
# (label peers: Erlang runs of seconds, skipped without Erlang). `make
# fuzz-engines` runs the first, `ctest -L peers` the second, and the clang
# step of `make ci` runs both.
test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -LE "fuzz-engines|peers"

fuzz-engines: build
	ctest --test-dir $(BUILD) --output-on-failure -L fuzz-engines

# The build shows its progress (the first one takes about a minute); each
# program then prints one summary line per search, and for a variant with a
# seeded bug an "expected finding (seeded bug)" line and its trace.
#
# MODE=simulate: seeded random walks (merilo/explore/simulate.hpp) over the
# same systems, one summary line each; the fixed systems must pass, a seeded
# bug is found or noted as missed (examples/simulate).
MODE  ?= search
SEED  ?= 1
WALKS ?= 1000
DEPTH ?= 100
explore: deps $(BUILD)/CMakeCache.txt
	@case "$(MODE)" in search|simulate) ;; *) echo "make explore: MODE is search (the default) or simulate, not '$(MODE)'" >&2; exit 2;; esac
	@echo "== building the examples' explore programs"
	@GNUMAKEFLAGS=--no-print-directory cmake --build $(BUILD) -j $(JOBS) --target explore
	@if [ "$(MODE)" = simulate ]; then \
	  echo "== random walks over every example (SEED=$(SEED) WALKS=$(WALKS) DEPTH=$(DEPTH))"; \
	  $(BUILD)/explore-bin/simulate_examples $(SEED) $(WALKS) $(DEPTH) 2>&1; \
	else \
	  echo "== exploring every example"; \
	  status=0; for p in $(BUILD)/explore-bin/*_explore; do "$$p" 2>&1 || status=1; done; exit $$status; \
	fi

# make explore-mpi: the explorer on Open MPI ranks (--oversubscribe: this
# machine may have fewer cores than ranks; as root Open MPI needs its two
# OMPI_ALLOW_RUN_AS_ROOT variables).
NP  ?= 4
RMS_MPI ?= 7
MPIRUN := OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --oversubscribe -np $(NP)
explore-mpi: $(BUILD)/CMakeCache.txt
	@$(DEPS) base mpi
	@cmake $(BUILD) >/dev/null
	@GNUMAKEFLAGS=--no-print-directory cmake --build $(BUILD) -j $(JOBS) --target tla_twophase_mpi
	$(MPIRUN) $(BUILD)/explore-bin/tla_twophase_mpi $(RMS_MPI)
	$(MPIRUN) $(BUILD)/explore-bin/tla_twophase_mpi $(RMS_MPI) --bug

bench:
	@$(DEPS) base bench
	cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DMERILO_BUILD_BENCH=ON $(CMAKE_FLAGS)
	cmake --build build-bench -j $(JOBS)
	@for p in build-bench/bench-bin/bench_*; do echo "== $$p"; "$$p" || exit 1; done
	@echo "== merilo vs SPIN"; bench/explore/vs_spin.sh build-bench/bench-bin/bench_explore

# make bench-fuzz-twins: every example fuzz target beside its hand-written
# libFuzzer twin (bench/fuzz/twin.hpp), same flags, one run: executions per
# CPU second and the ratio (TWIN_RUNS=30000 ROUNDS=3). make bench-fuzz-bugs:
# executions and seconds to each seeded bug, seeded merilo against the twin,
# under libFuzzer and AFL++ (SEEDS=10 CAP=200000; minutes). Both build
# build-fuzz/ (and build-fuzz-afl/) through cmake/fuzz.sh.
bench-fuzz-twins:
	@$(DEPS) base clang
	@JOBS=$(JOBS) bench/fuzz/twins.sh
bench-fuzz-bugs:
	@$(DEPS) base clang
	@JOBS=$(JOBS) bench/fuzz/time_to_bug.sh

# make bench-spin: merilo against SPIN 6.5.2 on Gray and Lamport's TwoPhase
# (bench/spin/), for each of RMS resource managers, run alternately ROUNDS
# times; prints the Markdown table docs/benchmarks.md records. 10 RMs takes
# minutes and about 3 GB per tool.
RMS ?= 8 9
ROUNDS ?= 1
bench-spin:
	@$(DEPS) base bench
	cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DMERILO_BUILD_BENCH=ON $(CMAKE_FLAGS)
	cmake --build build-bench -j $(JOBS) --target bench_explore
	@ROUNDS=$(ROUNDS) bench/spin/compare.sh build-bench/bench-bin/bench_explore $(RMS)

# make bench-proper: merilo's parallel tester (bench_schedulers: controlled
# and stress rows, seeds 1..CHECKS) against PropEr's parallel statem
# (bench/proper/: CHECKS independent checks per bug at PropEr's defaults)
# on the same four seeded races, one after the other in one run; prints the
# Markdown table docs/benchmarks.md records. ONLY=word runs the bugs whose
# name holds it. 100 checks take tens of minutes (merilo's stress rows
# spend about 2 s a check).
CHECKS ?= 100
ONLY ?=
bench-proper:
	@$(DEPS) base bench proper
	cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DMERILO_BUILD_BENCH=ON $(CMAKE_FLAGS)
	cmake --build build-bench -j $(JOBS) --target bench_schedulers
	@CHECKS=$(CHECKS) ONLY="$(ONLY)" bench/proper/compare.sh build-bench/bench-bin/bench_schedulers

# make docs: the API reference from the public headers' `///` comments, with
# the guide pages of docs/ linked from its front page (docs/api.md), in
# build-docs/html/index.html. Any Doxygen warning fails it (cmake/docs.sh).
docs:
	@$(DEPS) docs
	cmake/docs.sh build-docs

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
# libFuzzer's -merge=1 (the smallest subset with the same coverage), keeping
# every merilo-seed-* file the explorer wrote.
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

# make tsan: ThreadSanitizer over every test whose merilo_test() carries the
# label `threads`, in build-ci-tsan/ (the `tsan` step of make ci).
tsan:
	@$(DEPS) base clang
	cmake/ci.sh tsan

# make ci: every step of cmake/ci.sh (each in its own build-ci-* directory),
# then a summary naming each step's result. CI_STEPS picks some, e.g.
# `make ci CI_STEPS="gcc lint"`; CI_FUZZTIME is the seconds each fuzz
# target runs in the `fuzz` step (default 10).
CI_STEPS ?=
ci:
	@$(DEPS) base clang lint m32 coverage docs
	cmake/ci.sh $(CI_STEPS)

clean:
	rm -rf $(BUILD) build-*
