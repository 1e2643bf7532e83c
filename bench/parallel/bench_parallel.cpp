// bench_parallel.cpp — the parallel tester's costs and catch rates:
//   1. races per second on the crew, threads reused against fresh threads
//      per race (why the crew keeps its threads);
//   2. check executions per second on the fixed examples;
//   3. for each seeded bug, in how many of 100 seeds a default check finds
//      it, and after how many runs.
// Prints ratios measured in this run; never asserts a time.
//
// Usage: bench_parallel [seeds]   (default 100)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <bank/spec.hpp>
#include <counter/spec.hpp>
#include <merilo/parallel/detail/crew.hpp>
#include <merilo/parallel/machine.hpp>
#include <merilo/parallel/parallel.hpp>
#include <mutex/parallel.hpp>
#include <stack/spec.hpp>

namespace parallel = merilo::parallel;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Races of `n` tasks that each do a little work, per second.
double races_per_second(parallel::detail::Crew::Threads threads, std::size_t n, std::size_t races) {
  parallel::detail::Crew crew(threads);
  std::vector<unsigned> sinks(n);
  const auto start = Clock::now();
  for (std::size_t r = 0; r < races; ++r) {
    std::vector<std::function<void()>> tasks;
    for (std::size_t i = 0; i < n; ++i) {
      tasks.emplace_back([&sinks, i] {
        for (unsigned k = 0; k < 100; ++k) sinks[i] += k;
      });
    }
    crew.race(std::move(tasks), Clock::now() + std::chrono::seconds(10));
  }
  return static_cast<double>(races) / seconds_since(start);
}

template <class S>
void throughput(const char* name, S spec, std::size_t test_count) {
  const auto start = Clock::now();
  const auto r = parallel::check(spec, {.seed = 1, .test_count = test_count});
  const double s = seconds_since(start);
  std::printf("  %-24s %6zu executions in %6.3f s: %8.0f executions/s%s\n", name, r.executions, s,
              static_cast<double>(r.executions) / s, r.ok() ? "" : "  (FAILED: unexpected)");
}

template <class S>
void catch_rate(const char* name, S spec, std::size_t seeds) {
  std::size_t found = 0;
  std::size_t runs = 0;
  std::size_t executions = 0;
  const auto start = Clock::now();
  for (std::size_t seed = 1; seed <= seeds; ++seed) {
    // Default settings; shrinking off, since it cannot change whether the
    // bug was found (it starts only after).
    const auto r = parallel::check(spec, {.seed = seed, .max_shrinks = 0});
    if (r.failure && r.failure->violation.tag == parallel::kNotLinearizableTag) {
      ++found;
      runs += r.runs;
      executions += r.executions;
    }
  }
  const double s = seconds_since(start);
  std::printf(
      "  %-24s found in %3zu/%zu seeds; mean %5.1f runs, %6.1f executions to find; %6.2f s\n", name,
      found, seeds, found ? static_cast<double>(runs) / static_cast<double>(found) : 0.0,
      found ? static_cast<double>(executions) / static_cast<double>(found) : 0.0, s);
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t seeds = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 100;
  using Threads = parallel::detail::Crew::Threads;

  std::printf("1. races/s on the crew (each task: 100 additions)\n");
  for (std::size_t n : {2U, 3U}) {
    const double reused = races_per_second(Threads::reused, n, 20'000);
    const double fresh = races_per_second(Threads::fresh, n, 20'000);
    std::printf("  %zu threads: reused %8.0f races/s, fresh %8.0f races/s, reused/fresh %.1fx\n", n,
                reused, fresh, reused / fresh);
  }

  std::printf("\n2. check throughput on the fixed examples (seed 1, default config)\n");
  throughput("counter", counter::Spec<counter::Bug::none>{}, 2'000);
  throughput("bank", bank::Spec<bank::Bug::none>{}, 2'000);
  throughput("stack", stack::Spec<stack::Bug::none>{}, 2'000);
  throughput("lock server", parallel::machine_spec(mutex::LockBinding<mutex::LockService<>>{}),
             2'000);

  std::printf("\n3. seeded bugs found by a default check, out of %zu seeds\n", seeds);
  catch_rate("counter lost update", counter::Spec<counter::Bug::lost_update>{}, seeds);
  catch_rate("bank check-then-debit", bank::Spec<bank::Bug::check_then_debit>{}, seeds);
  catch_rate("stack split pop", stack::Spec<stack::Bug::split_pop>{}, seeds);
  catch_rate("lock server racy holder",
             parallel::machine_spec(mutex::LockBinding<mutex::RacyLockService>{}), seeds);
  return 0;
}
