// merilo/fuzz/threads.hpp — a plain threaded test (`sync::model`'s body)
// as a libFuzzer target over its schedules.
//
//   #include <merilo/fuzz/threads.hpp>
//
//   void body() { /* sync::threads, shared state, MERILO_SYNC_ASSERT, joins */ }
//   MERILO_THREADS_FUZZ_TARGET(body);   // or _WITH(body, options)
//
// Each input is one execution: its bytes choose which thread runs at every
// step where two or more can, and which store each load reads
// (merilo/sync/fuzz.hpp gives the format); every input runs. The reads-from
// pairs an execution makes, and its (thread, point) steps, are fed to
// libFuzzer as extra coverage, so an input that makes a load read a store
// it never read before, or switches to a thread at a step where no input
// switched before, is kept. A
// failing input prints `sync::model`'s report, whose pinned test replays it
// under the controller, and aborts (the crash file libFuzzer writes).
//
// `-merilo_seed=DIR` writes the corpus the search gives (the
// fewest-preemption execution to each reads-from pair, `seed_inputs`) and
// exits, as every merilo fuzz target's seeding does, so `make fuzz`,
// `-fork`, AFL++ and ClusterFuzzLite run threads targets as they run the
// others; built without libFuzzer the same source replays files.
#ifndef MERILO_FUZZ_THREADS_HPP
#define MERILO_FUZZ_THREADS_HPP

#include <cstddef>     // std::size_t
#include <cstdint>     // std::uint8_t
#include <functional>  // the body
#include <string>      // the body's name
#include <vector>      // reads-from hashes

#include <merilo/sync/fuzz.hpp>   // run_input, seed_inputs
#include <merilo/sync/model.hpp>  // ModelOptions

namespace merilo::fuzz {

/// Slots of the schedule coverage libFuzzer sees as extra counters: the
/// first half holds the reads-from pairs (`sync::FuzzRun::reads_from`),
/// the second the (thread, point) steps (`sync::FuzzRun::points`), each
/// hashed into its half.
inline constexpr std::size_t kScheduleCounters = 8192;

/// A threads fuzz target: what `MERILO_THREADS_FUZZ_TARGET` defines.
class ThreadsTarget {
 public:
  /// `body` under `options` (`options.preemptions` bounds the seeding
  /// search; `max_executions` its size); `name` names it in reports.
  ThreadsTarget(std::function<void()> body, sync::ModelOptions options, std::string name);
  /// LLVMFuzzerInitialize: `-merilo_seed=DIR` seeds DIR and exits.
  int initialize(int* argc, char*** argv);
  /// LLVMFuzzerTestOneInput: runs one input; aborts on a failure.
  int test_one_input(const std::uint8_t* data, std::size_t size);
  /// Writes the seeds to `dir`; returns the error, or "". `complete`: the
  /// seeding search ran every execution (none left out by its bounds).
  [[nodiscard]] std::string seed(const std::string& dir, std::size_t& written, bool& complete);

 private:
  std::function<void()> body_;
  sync::ModelOptions options_;
};

namespace detail {

/// Adds one to the extra counter of each reads-from pair and each (thread,
/// point) step `run` made (the coverage libFuzzer sees; saturating at 255).
/// Threads and parallel targets share the counters.
void count_schedule_coverage(const sync::FuzzRun& run) noexcept;

/// The lines a parallel target prints before its report when an input
/// fails: what it found, and the input's size, case and execution number.
[[nodiscard]] std::string parallel_crash_text(const std::string& target, const std::string& tag,
                                              std::size_t size, std::size_t run,
                                              std::size_t schedule_bytes, std::size_t execution,
                                              const std::string& report);

/// The line a parallel target prints once it has seeded `dir`.
[[nodiscard]] std::string parallel_seed_line(const std::string& target, const std::string& dir,
                                             std::size_t written, std::size_t cases,
                                             std::size_t executions, bool complete,
                                             std::size_t preemptions);

}  // namespace detail

}  // namespace merilo::fuzz

/// Defines the libFuzzer entry points for the plain threaded test `body`
/// (a function or a lambda expression), run under `options` (an expression
/// of type `sync::ModelOptions`).
#define MERILO_THREADS_FUZZ_TARGET_WITH(body, options)                                \
  static ::merilo::fuzz::ThreadsTarget& merilo_threads_fuzz_target() {                \
    static ::merilo::fuzz::ThreadsTarget target{body, options, #body};                \
    return target;                                                                    \
  }                                                                                   \
  extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {                      \
    return merilo_threads_fuzz_target().initialize(argc, argv);                       \
  }                                                                                   \
  extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) { \
    return merilo_threads_fuzz_target().test_one_input(data, size);                   \
  }                                                                                   \
  static_assert(true, "require a semicolon after MERILO_THREADS_FUZZ_TARGET_WITH(...)")

/// `MERILO_THREADS_FUZZ_TARGET_WITH(body, merilo::sync::ModelOptions{})`.
#define MERILO_THREADS_FUZZ_TARGET(body) \
  MERILO_THREADS_FUZZ_TARGET_WITH(body, ::merilo::sync::ModelOptions{})

#endif  // MERILO_FUZZ_THREADS_HPP
