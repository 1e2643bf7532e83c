// bench_schedulers.cpp — how the parallel tester finds nanosecond-wide races
// with no pause in their window, controlled scheduling against the stress
// mode, side by side in one run:
//   1. for each seeded bug (lost increment, double insert, lock-order
//      deadlock, queue over capacity, torn seqlock read), over seeds
//      1..N at the defaults: found /N, shrunk to the least case /N, median
//      executions to the first failure, median ms per check;
//   2. the fixed twins: ms per passing check and schedules per case;
//   3. the cost of merilo::sync types outside a controlled run against the
//      std types they wrap.
// Prints ratios measured in this run; never asserts a time.
//
// Usage: bench_schedulers [seeds]   (default 100; MERILO_BENCH_ONLY=word picks the
// bugs whose name contains it, MERILO_BENCH_MODE=controlled or stress one mode,
// MERILO_BENCH_SHOW=1 prints the report of each failure not shrunk to the least case;
// MERILO_BENCH_ONLY=overhead runs only part 3)
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include <merilo/parallel/parallel.hpp>
#include <merilo/sync/sync.hpp>

#include "controlled_systems.hpp"  // tests/parallel: the seeded systems

namespace parallel = merilo::parallel;

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

template <class T>
T median(std::vector<T> v) {
  if (v.empty()) return T{};
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class Cmd>
std::size_t calls(const parallel::Case<Cmd>& c) {
  std::size_t n = c.prefix.size();
  for (const auto& b : c.branches) n += b.size();
  return n;
}

/// One row: `spec` checked at the defaults but `scheduler`, over `seeds` seeds.
template <class S>
void row(const char* bug, const char* mode, const S& spec, parallel::Scheduler scheduler,
         std::size_t least_calls, std::size_t seeds) {
  std::size_t found = 0;
  std::size_t least = 0;
  std::vector<double> ms;
  std::vector<std::size_t> to_failure;
  std::vector<std::size_t> executions;
  for (std::size_t seed = 1; seed <= seeds; ++seed) {
    const auto start = Clock::now();
    const auto r = parallel::check(spec, {.seed = seed, .scheduler = scheduler});
    ms.push_back(ms_since(start));
    executions.push_back(r.executions);
    // Found means failed with the bug's own tag (a case with nothing to
    // race, parallel.no_race, is not the bug).
    if (!r.failure || r.failure->violation.tag == parallel::kNoRaceTag) continue;
    ++found;
    if (calls(r.failure->shrunk) == least_calls) {
      ++least;
    } else if (std::getenv("MERILO_BENCH_SHOW") != nullptr) {
      std::printf("seed %zu shrunk to %zu calls:\n%s\n", seed, calls(r.failure->shrunk),
                  parallel::report(*r.failure).c_str());
    }
    to_failure.push_back(r.failure->executions_to_failure);
  }
  std::printf("| %s | %s | %zu/%zu | %zu/%zu | %zu | %zu | %.1f |\n", bug, mode, found, seeds,
              least, seeds, median(to_failure), median(executions), median(ms));
  std::fflush(stdout);
}

template <class S>
void both(const char* bug, const S& spec, std::size_t least_calls, std::size_t seeds) {
  // MERILO_BENCH_ONLY=word runs only the bugs whose name contains it.
  const char* only = std::getenv("MERILO_BENCH_ONLY");
  if (only != nullptr && std::string(bug).find(only) == std::string::npos) return;
  // MERILO_BENCH_MODE=controlled or stress runs only that mode.
  const char* mode = std::getenv("MERILO_BENCH_MODE");
  const auto wanted = [&](const char* m) { return mode == nullptr || std::string(mode) == m; };
  if (wanted("controlled")) {
    row(bug, "controlled", spec, parallel::Scheduler::automatic, least_calls, seeds);
  }
  if (wanted("stress")) row(bug, "stress", spec, parallel::Scheduler::stress, least_calls, seeds);
}

template <class S>
void fixed(const char* name, const S& spec) {
  for (auto scheduler : {parallel::Scheduler::automatic, parallel::Scheduler::stress}) {
    const auto start = Clock::now();
    const auto r = parallel::check(spec, {.seed = 1, .scheduler = scheduler});
    const double ms = ms_since(start);
    std::printf("| %s | %s | %s | %.0f | %zu | %.1f |\n", name,
                scheduler == parallel::Scheduler::automatic ? "controlled" : "stress",
                r.ok() ? "pass" : "FAIL", ms, r.executions,
                r.bounded_cases > 0
                    ? static_cast<double>(r.schedules) / static_cast<double>(r.bounded_cases)
                    : 0.0);
    std::fflush(stdout);
  }
}

/// ns per operation of `op`, best of five rounds of `n`.
template <class F>
double ns_per_op(F op, std::size_t n) {
  double best = 1e300;
  for (int round = 0; round < 5; ++round) {
    const auto start = Clock::now();
    for (std::size_t i = 0; i < n; ++i) op(i);
    best = std::min(best, std::chrono::duration<double, std::nano>(Clock::now() - start).count() /
                              static_cast<double>(n));
  }
  return best;
}

void overhead() {
  constexpr std::size_t kN = 20'000'000;
  std::atomic<std::int64_t> sa{0};
  merilo::sync::atomic<std::int64_t> ma{0};
  std::mutex sm;
  merilo::sync::mutex mm;
  std::int64_t guarded = 0;
  const double a_std =
      ns_per_op([&](std::size_t) { sa.fetch_add(1, std::memory_order_relaxed); }, kN);
  const double a_sync =
      ns_per_op([&](std::size_t) { ma.fetch_add(1, std::memory_order_relaxed); }, kN);
  const double l_std = ns_per_op([&](std::size_t) { sa.load(std::memory_order_acquire); }, kN);
  const double l_sync =
      ns_per_op([&](std::size_t) { (void)ma.load(std::memory_order_acquire); }, kN);
  const double m_std = ns_per_op(
      [&](std::size_t) {
        std::lock_guard g(sm);
        ++guarded;
      },
      kN / 4);
  const double m_sync = ns_per_op(
      [&](std::size_t) {
        std::lock_guard g(mm);
        ++guarded;
      },
      kN / 4);
  std::printf("| atomic fetch_add (relaxed) | %.2f | %.2f | %.3f |\n", a_std, a_sync,
              a_sync / a_std);
  std::printf("| atomic load (acquire) | %.2f | %.2f | %.3f |\n", l_std, l_sync, l_sync / l_std);
  std::printf("| mutex lock + unlock | %.2f | %.2f | %.3f |\n", m_std, m_sync, m_sync / m_std);
  if (guarded == 42) std::puts("");  // keep the loops
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t seeds = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 100;
  std::printf("## seeded bugs, defaults but the scheduler, seeds 1..%zu\n\n", seeds);
  std::printf(
      "| bug | mode | found | shrunk to least | median executions to first failure | "
      "median executions per check | median ms per check |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- |\n");
  both("lost increment", controlled::CounterSpec{.racy = true}, 2, seeds);
  both("double insert", controlled::SetSpec{.racy = true}, 2, seeds);
  both("lock-order deadlock", controlled::AccountsSpec{.ordered = false}, 2, seeds);
  both("queue over capacity", controlled::QueueSpec{.racy = true}, 3, seeds);
  both("torn seqlock read", controlled::SeqSpec{.torn = true}, 2, seeds);
  const char* only = std::getenv("MERILO_BENCH_ONLY");
  if (only != nullptr && std::string(only) == "overhead") {
    std::printf("\n## merilo::sync outside a controlled run (one thread, ns per operation)\n\n");
    std::printf("| operation | std | merilo::sync | ratio |\n| --- | --- | --- | --- |\n");
    overhead();
  }
  if (only != nullptr) return 0;
  std::printf("\n## fixed twins, seed 1, 100 cases\n\n");
  std::printf("| system | mode | verdict | ms per check | executions | schedules per case |\n");
  std::printf("| --- | --- | --- | --- | --- | --- |\n");
  fixed("counter", controlled::CounterSpec{});
  fixed("set", controlled::SetSpec{});
  fixed("accounts", controlled::AccountsSpec{.ordered = true});
  fixed("queue", controlled::QueueSpec{});
  fixed("seqlock", controlled::SeqSpec{});
  std::printf("\n## merilo::sync outside a controlled run (one thread, ns per operation)\n\n");
  std::printf("| operation | std | merilo::sync | ratio |\n| --- | --- | --- | --- |\n");
  overhead();
  return 0;
}
