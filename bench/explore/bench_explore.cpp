// bench_explore — the explorer's throughput and memory.
//
// For each system: states/s in replay and restore mode, on 1 and 2 threads,
// bytes per stored state, and steps applied per state. Prints a Markdown
// table (median of 3 runs) for docs/benchmarks.md. Ratios within one run
// are what to compare; absolute numbers depend on the machine.
//
//   make bench   (or: build-bench/bench-bin/bench_explore)
#include <merilo/explore/explore.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <sys/resource.h>

#include <fixtures.hpp>
#include <order/system.hpp>
#include <tla_twophase/system.hpp>

namespace {

namespace ex = merilo::explore;

// N counters 0..K, every counter independent: (K+1)^N worlds (the
// explorer tests' fixture, tests/explore/fixtures.hpp).
using fixtures::Counters;

struct Row {
  double seconds;
  ex::ExploreResult result;
};

template <class S>
Row measure(ex::Mode mode, unsigned threads) {
  std::vector<Row> runs;
  for (int i = 0; i < 3; ++i) {
    S sys;
    const auto start = std::chrono::steady_clock::now();
    ex::ExploreResult r = ex::explore(
        sys, {.max_states = 50'000'000, .mode = mode, .threads = threads, .quiet = true});
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    runs.push_back({secs, std::move(r)});
  }
  std::sort(runs.begin(), runs.end(),
            [](const Row& a, const Row& b) { return a.seconds < b.seconds; });
  return std::move(runs[1]);
}

template <class S>
void bench(const char* name) {
  double base = 0;
  for (ex::Mode mode : {ex::Mode::replay, ex::Mode::restore}) {
    for (unsigned threads : {1U, 2U}) {
      const Row row = measure<S>(mode, threads);
      const auto& r = row.result;
      if (!r.complete || r.violation.found()) {
        std::printf("| %s | search did not complete: %s |\n", name, r.summary().c_str());
        return;
      }
      const double rate = static_cast<double>(r.states) / row.seconds;
      if (base == 0) base = rate;
      std::printf("| %s | %s | %u | %zu | %zu | %.3f | %.0f | %.1fx | %.1f | %.1f |\n", name,
                  mode == ex::Mode::replay ? "replay" : "restore", threads, r.states, r.depth,
                  row.seconds, rate, rate / base,
                  static_cast<double>(r.memory_bytes) / static_cast<double>(r.states),
                  static_cast<double>(r.steps) / static_cast<double>(r.states));
    }
  }
}

// One restore-mode search of counters 6x0..7 on 1 thread (or 2, with a
// second argument "2"), for vs_spin.sh: prints
// "<seconds> <states> <peak bytes of visited set and links>".
int once(unsigned threads) {
  Counters<6, 7> sys;
  const auto start = std::chrono::steady_clock::now();
  const ex::ExploreResult r =
      ex::explore(sys, {.max_states = 50'000'000, .threads = threads, .quiet = true});
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%.3f %zu %zu\n", secs, r.states, r.memory_bytes);
  return r.complete ? 0 : 1;
}

// A positive decimal number (at most 18 digits), or 0 when `text` is not one.
std::uint64_t positive(const std::string& text) {
  if (text.empty() || text.size() > 18 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    return 0;
  }
  return std::stoull(text);
}

// Peak resident set of this process, in bytes.
std::size_t peak_rss() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::size_t>(usage.ru_maxrss) * 1024;
}

// What `--twophase` runs beside the RMs and threads: hash compaction
// (`bits` > 0) and a frontier spilled to disk past `spill` bytes (> 0).
struct TwoPhaseRun {
  unsigned threads = 1;
  unsigned bits = 0;
  std::size_t spill = 0;
};

// One restore-mode search of TwoPhase with `rms` resource managers, for
// bench/spin/compare.sh: prints "<seconds> <states> <depth> <memory_bytes>
// <peak RSS bytes>", with hash compaction the reported miss probability
// after them, and with spilling "spilled=<peak bytes on disk>". Progress goes to stderr (every
// second after the first). With `Symmetry::rms` the adapter's canonical() sorts the RMs' slots.
template <unsigned N, tla_twophase::Symmetry symmetry>
int twophase_once(const TwoPhaseRun& run) {
  const unsigned bits = run.bits;
  tla_twophase::System<N, tla_twophase::Bug::none, symmetry> sys;
  const auto start = std::chrono::steady_clock::now();
  // With compaction the table is sized for max_states (at most 89% full),
  // so keep it just above the count: 10.3e6 worlds at 9 RMs, 61.5e6 at 10,
  // about 3.7e8 at 11 and 2.2e9 at 12.
  const std::size_t max_states = bits == 0 ? (N <= 10 ? 100'000'000 : 4'000'000'000)
                                 : N <= 9  ? 11'000'000
                                 : N == 10 ? 63'000'000
                                 : N == 11 ? 380'000'000
                                           : 2'300'000'000;
  const ex::ExploreResult r = ex::explore(sys, {.max_states = max_states,
                                                .threads = run.threads,
                                                .name = "tla_twophase",
                                                .compact_bits = bits,
                                                .frontier_bytes = run.spill});
  if (!r.error.empty()) {
    std::fprintf(stderr, "bench_explore: %s\n", r.error.c_str());
    return 1;
  }
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%.3f %zu %zu %zu %zu", secs, r.states, r.depth, r.memory_bytes, peak_rss());
  if (bits != 0) std::printf(" %.3g", r.miss_probability);
  if (run.spill != 0)
    std::printf(" spilled=%llu", static_cast<unsigned long long>(r.spilled_bytes));
  std::printf("\n");
  return r.complete && !r.violation.found() ? 0 : 1;
}

template <tla_twophase::Symmetry symmetry>
int twophase(unsigned rms, const TwoPhaseRun& run) {
  switch (rms) {
    case 3:
      return twophase_once<3, symmetry>(run);
    case 5:
      return twophase_once<5, symmetry>(run);
    case 7:
      return twophase_once<7, symmetry>(run);
    case 8:
      return twophase_once<8, symmetry>(run);
    case 9:
      return twophase_once<9, symmetry>(run);
    case 10:
      return twophase_once<10, symmetry>(run);
    case 11:
      return twophase_once<11, symmetry>(run);
    case 12:
      return twophase_once<12, symmetry>(run);
    case 14:
      return twophase_once<14, symmetry>(run);
    default:
      std::fprintf(stderr,
                   "bench_explore: --twophase takes 3, 5, 7, 8, 9, 10, 11, 12 or 14 RMs, not %u\n",
                   rms);
      return 2;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--counters-once") {
    return once(argc > 2 && std::string(argv[2]) == "2" ? 2U : 1U);
  }
  if (argc > 1 && std::string(argv[1]) == "--twophase") {
    // --twophase RMS [THREADS [symmetry | compact=BITS | spill=BYTES ...]]
    const unsigned rms = argc > 2 ? static_cast<unsigned>(std::stoul(argv[2])) : 0;
    TwoPhaseRun run;
    run.threads = argc > 3 ? static_cast<unsigned>(std::stoul(argv[3])) : 1;
    bool symmetry = false;
    for (int i = 4; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "symmetry") {
        symmetry = true;
      } else if (arg.rfind("compact=", 0) == 0) {
        const std::uint64_t bits = positive(arg.substr(8));
        if (bits == 0 || bits > 64) {
          std::fprintf(stderr, "bench_explore: compact=BITS takes 1..64 bits, not \"%s\"\n",
                       argv[i]);
          return 2;
        }
        run.bits = static_cast<unsigned>(bits);
      } else if (arg.rfind("spill=", 0) == 0) {
        run.spill = static_cast<std::size_t>(positive(arg.substr(6)));
        if (run.spill == 0) {
          std::fprintf(stderr,
                       "bench_explore: spill=BYTES takes a positive byte count, not \"%s\"\n",
                       argv[i]);
          return 2;
        }
      } else {
        std::fprintf(stderr,
                     "bench_explore: --twophase RMS THREADS takes \"symmetry\", \"compact=BITS\", "
                     "\"spill=BYTES\" or nothing, not \"%s\"\n",
                     argv[i]);
        return 2;
      }
    }
    if (symmetry && (run.bits != 0 || run.spill != 0)) {
      std::fprintf(stderr, "bench_explore: symmetry runs alone (no compact= or spill=)\n");
      return 2;
    }
    if (symmetry) return twophase<tla_twophase::Symmetry::rms>(rms, run);
    return twophase<tla_twophase::Symmetry::none>(rms, run);
  }
  std::printf(
      "| system | mode | threads | states | depth | seconds | states/s | vs replay/1 | bytes/state "
      "| steps/state |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  bench<order::System>("order");
  bench<Counters<4, 15>>("counters 4x0..15");
  bench<Counters<6, 7>>("counters 6x0..7");
  bench<tla_twophase::System<7>>("TwoPhase 7 RMs");
  return 0;
}
