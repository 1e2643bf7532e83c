// bench_model — sync::model on the threads examples and on the shapes
// issue 33 sets its targets on, one run of each, printed as the tables of
// docs/benchmarks.md (section "sync::model"):
//
//   1. per seeded example (examples/threads/), for each search (exhaustive
//      DPOR, bounded at 2 preemptions, PCT at depth 3, random, all at their
//      defaults): the execution that failed first, the executions run in
//      all (exhaustive also spends executions looking for a failure with
//      fewer preemptions), the failure's preemptions, and the wall time;
//      then each fixed twin's complete exhaustive run;
//   2. relaxed message passing: executions to the failure;
//   3. executions per second on two threads of ten atomic operations each
//      (random search, a fixed number of executions);
//   4. a complete exhaustive run of three threads of four operations each;
//   5. the seqlock example's checks, median of 11 runs.
//
// Never timed assertions: the numbers are copied into the docs with the
// command that reproduces them.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include <merilo/sync/model.hpp>
#include <threads/chase_lev.hpp>
#include <threads/lazy_init.hpp>
#include <threads/lock_order.hpp>
#include <threads/peterson.hpp>
#include <threads/seqlock.hpp>
#include <threads/spsc_ring.hpp>
#include <threads/turn_taking.hpp>

namespace {

namespace ms = merilo::sync;
using Clock = std::chrono::steady_clock;
constexpr auto relaxed = std::memory_order_relaxed;

struct Example {
  const char* name;
  void (*seeded)();
  void (*fixed)();
};

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// CPU time of the whole process (every thread) in milliseconds: on a
/// loaded machine it says what a run costs when wall time cannot.
double cpu_ms() { return static_cast<double>(std::clock()) * 1000.0 / CLOCKS_PER_SEC; }

/// CPU milliseconds of the last `timed` run.
double last_cpu_ms = 0;

/// One run of `body` under `options`, timed.
ms::ModelResult timed(const ms::ModelOptions& options, void (*body)(), double& millis) {
  const double cpu = cpu_ms();
  const Clock::time_point start = Clock::now();
  ms::ModelResult r = ms::model(options, body);
  millis = ms_since(start);
  last_cpu_ms = cpu_ms() - cpu;
  return r;
}

void examples_table(const std::vector<Example>& examples) {
  std::printf("| example | search | first failure at | executions | preemptions | time |\n");
  std::printf("| --- | --- | ---: | ---: | ---: | ---: |\n");
  for (const Example& ex : examples) {
    for (const ms::Search s :
         {ms::Search::exhaustive, ms::Search::bounded, ms::Search::pct, ms::Search::random}) {
      ms::ModelOptions o;
      o.search = s;
      double millis = 0;
      const ms::ModelResult r = timed(o, ex.seeded, millis);
      if (r.failure) {
        std::printf("| %s | %s | %zu | %zu | %zu | %.1f ms |\n", ex.name, ms::search_name(s),
                    r.failure->execution, r.executions, r.failure->preemptions, millis);
      } else {
        std::printf("| %s | %s | not found%s | %zu | — | %.1f ms |\n", ex.name, ms::search_name(s),
                    r.complete ? " (every schedule in the bound checked)" : "", r.executions,
                    millis);
      }
    }
  }
  std::printf("\n| fixed twin | executions | sleep-set blocked | complete | time |\n");
  std::printf("| --- | ---: | ---: | --- | ---: |\n");
  for (const Example& ex : examples) {
    double millis = 0;
    const ms::ModelResult r = timed(ms::ModelOptions{}, ex.fixed, millis);
    std::printf("| %s | %zu | %zu | %s | %.1f ms |\n", ex.name, r.executions, r.sleep_blocked,
                r.passed() && r.complete ? "yes, passed" : r.summary().c_str(), millis);
  }
}

void message_passing() {
  ms::atomic<int> data{0};
  ms::atomic<int> flag{0};
  ms::thread writer([&] {
    data.store(42, relaxed);
    flag.store(1, relaxed);
  });
  if (flag.load(relaxed) == 1) MERILO_SYNC_ASSERT(data.load(relaxed) == 42);
  writer.join();
}

/// Two threads of ten operations each over three atomics: stores, loads
/// and fetch_adds, relaxed.
void two_by_ten() {
  ms::atomic<int> cells[3] = {};
  const auto work = [&cells](int me) {
    for (int k = 0; k < 10; ++k) {
      ms::atomic<int>& c = cells[(k + me) % 3];
      switch (k % 3) {
        case 0:
          c.store(k, relaxed);
          break;
        case 1:
          (void)c.load(relaxed);
          break;
        default:
          c.fetch_add(1, relaxed);
      }
    }
  };
  ms::thread a([&] { work(0); });
  ms::thread b([&] { work(1); });
  a.join();
  b.join();
}

/// Three threads of four operations each: a store and a load of a shared
/// flag and a store and a load of a cell of their own neighbour's.
void three_by_four() {
  ms::atomic<int> flag{0};
  ms::atomic<int> cells[3] = {};
  const auto work = [&](int me) {
    cells[me].store(1, std::memory_order_release);
    (void)flag.load(std::memory_order_acquire);
    flag.store(me, std::memory_order_release);
    (void)cells[(me + 1) % 3].load(std::memory_order_acquire);
  };
  ms::thread a([&] { work(0); });
  ms::thread b([&] { work(1); });
  ms::thread c([&] { work(2); });
  a.join();
  b.join();
  c.join();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main() {
  const std::vector<Example> examples = {
      {"lazy_init", threads::lazy_init_body<false>, threads::lazy_init_body<true>},
      {"spsc_ring", threads::spsc_ring_body<false>, threads::spsc_ring_body<true>},
      {"peterson", threads::peterson_body<false>, threads::peterson_body<true>},
      {"seqlock", threads::seqlock_body<false>, threads::seqlock_body<true>},
      {"lock_order", threads::lock_order_body<false>, threads::lock_order_body<true>},
      {"turn_taking", threads::turn_taking_body<false>, threads::turn_taking_body<true>},
      {"chase_lev", threads::chase_lev_body<false>, threads::chase_lev_body<true>},
  };
  examples_table(examples);

  double millis = 0;
  const ms::ModelResult mp = timed(ms::ModelOptions{}, message_passing, millis);
  std::printf("\nrelaxed message passing: %s (first failure at execution %zu, %.1f ms)\n",
              mp.summary().c_str(), mp.failure ? mp.failure->execution : 0, millis);

  ms::ModelOptions random;
  random.search = ms::Search::random;
  random.max_executions = 5000;
  const ms::ModelResult rate = timed(random, two_by_ten, millis);
  std::printf(
      "two threads x ten operations, random search: %zu executions in %.0f ms = %.0f "
      "executions/s (%.0f per CPU second)\n",
      rate.executions, millis, static_cast<double>(rate.executions) * 1000.0 / millis,
      static_cast<double>(rate.executions) * 1000.0 / last_cpu_ms);
  ms::ModelOptions capped;
  capped.max_executions = 5000;
  capped.fuzz_executions = 0;  // the search alone, not the fuzzer after it
  const ms::ModelResult dpor_rate = timed(capped, two_by_ten, millis);
  std::printf(
      "two threads x ten operations, exhaustive (capped at 5000): %zu executions in %.0f "
      "ms = %.0f executions/s (%.0f per CPU second)\n",
      dpor_rate.executions, millis, static_cast<double>(dpor_rate.executions) * 1000.0 / millis,
      static_cast<double>(dpor_rate.executions) * 1000.0 / last_cpu_ms);

  const ms::ModelResult full = timed(ms::ModelOptions{}, three_by_four, millis);
  std::printf("three threads x four operations, exhaustive: %s, %.0f ms (%.0f ms CPU)\n",
              full.summary().c_str(), millis, last_cpu_ms);

  for (const bool fixed : {false, true}) {
    std::vector<double> times;
    for (int i = 0; i < 11; ++i) {
      (void)timed(ms::ModelOptions{},
                  fixed ? threads::seqlock_body<true> : threads::seqlock_body<false>, millis);
      times.push_back(millis);
    }
    std::printf("seqlock example, %s, default search: median %.1f ms of 11 runs\n",
                fixed ? "fixed (complete)" : "seeded (to the failure)", median(times));
  }
  return 0;
}
