// bench_stress.cpp — the stress mode on code that cannot use merilo::sync:
// four components written with std primitives only
// (tests/parallel/std_systems.hpp: a lost increment, a double insert, a
// lock-order deadlock, a ring over capacity), each checked by
// `parallel::check` at the defaults (the automatic scheduler runs them
// free) for seeds 1..N:
//   found /N, shrunk to the least case /N, median ms per check, median ms
//   to the first failure, and the slowest check (for the deadlock: the
//   time to report it);
// then the fixed twins and a locked deque, seed 1: passing, and ms.
// Prints what this run measured; asserts nothing. bench/parallel/stress_load.sh
// runs it once quiet and once beside a nice-19 build.
//
// Usage: bench_stress [seeds]   (default 20; MERILO_BENCH_ONLY=word runs the
// rows whose name contains it; MERILO_BENCH_SHOW=1 prints each failure that
// was not shrunk to the least case)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <merilo/parallel/parallel.hpp>

#include "std_systems.hpp"  // tests/parallel

namespace parallel = merilo::parallel;

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class Cmd>
std::size_t calls(const parallel::Case<Cmd>& c) {
  std::size_t n = c.prefix.size();
  for (const auto& b : c.branches) n += b.size();
  return n;
}

bool wanted(const char* name) {
  const char* only = std::getenv("MERILO_BENCH_ONLY");
  return only == nullptr || std::string(name).find(only) != std::string::npos;
}

template <class S>
void row(const char* bug, const S& spec, const char* tag, std::size_t least_calls,
         std::size_t seeds) {
  if (!wanted(bug)) return;
  std::size_t found = 0;
  std::size_t least = 0;
  std::vector<double> ms;
  std::vector<double> to_failure;
  double slowest = 0;
  for (std::size_t seed = 1; seed <= seeds; ++seed) {
    const auto start = Clock::now();
    const auto r = parallel::check(spec, {.seed = seed});
    const double took = ms_since(start);
    ms.push_back(took);
    slowest = std::max(slowest, took);
    if (!r.error.empty()) {
      std::printf("seed %zu: usage error: %s\n", seed, r.error.c_str());
      continue;
    }
    // Found: failed with the bug's own tag (not no_race, not a timeout).
    if (!r.failure || r.failure->violation.tag != tag) {
      if (r.failure && std::getenv("MERILO_BENCH_SHOW") != nullptr) {
        std::printf("seed %zu failed otherwise:\n%s\n", seed, parallel::report(*r.failure).c_str());
      }
      continue;
    }
    ++found;
    to_failure.push_back(static_cast<double>(r.failure->ns_to_failure) / 1e6);
    if (calls(r.failure->shrunk) == least_calls) {
      ++least;
    } else if (std::getenv("MERILO_BENCH_SHOW") != nullptr) {
      std::printf("seed %zu shrunk to %zu calls:\n%s\n", seed, calls(r.failure->shrunk),
                  parallel::report(*r.failure).c_str());
    }
  }
  std::printf("| %s | %zu/%zu | %zu/%zu | %.0f | %.0f | %.0f |\n", bug, found, seeds, least, seeds,
              median(ms), median(to_failure), slowest);
  std::fflush(stdout);
}

template <class S>
void fixed(const char* name, const S& spec) {
  if (!wanted(name)) return;
  const auto start = Clock::now();
  const auto r = parallel::check(spec, {.seed = 1});
  const double ms = ms_since(start);
  std::printf("| %s | %s | %.0f | %zu |\n", name,
              r.ok() ? "pass" : (r.failure ? r.failure->violation.tag.c_str() : r.error.c_str()),
              ms, r.executions);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t seeds = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 20;
  std::printf("## std-only seeded bugs, parallel::check at the defaults, seeds 1..%zu\n\n", seeds);
  std::printf(
      "| bug | found | shrunk to least | median ms per check | median ms to first failure | "
      "slowest check ms |\n| --- | --- | --- | --- | --- | --- |\n");
  const std::string nl(parallel::kNotLinearizableTag);
  const std::string dl(parallel::kDeadlockTag);
  row("lost increment", stdsys::CounterSpec{.racy = true}, nl.c_str(), 2, seeds);
  row("double insert", stdsys::SetSpec{.racy = true}, nl.c_str(), 2, seeds);
  row("lock-order deadlock", stdsys::AccountsSpec{.ordered = false}, dl.c_str(), 2, seeds);
  row("ring over capacity", stdsys::RingSpec{.racy = true}, nl.c_str(), 3, seeds);
  std::printf("\n## fixed twins, seed 1, 100 cases\n\n");
  std::printf("| system | verdict | ms per check | executions |\n| --- | --- | --- | --- |\n");
  fixed("counter (fixed)", stdsys::CounterSpec{});
  fixed("set (fixed)", stdsys::SetSpec{});
  fixed("accounts (fixed)", stdsys::AccountsSpec{.ordered = true});
  fixed("ring (fixed)", stdsys::RingSpec{});
  fixed("locked deque", stdsys::FifoSpec<stdsys::LockedQueue>{});
  return 0;
}
