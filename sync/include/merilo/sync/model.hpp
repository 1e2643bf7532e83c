// merilo/sync/model.hpp — model-check a plain threaded test: run its body
// under the controlled scheduler again and again until every execution the
// C++ memory model allows has been checked, or one fails.
//
// The body is ordinary test code written against merilo::sync: it makes
// shared state, starts `sync::thread`s, joins them and asserts. `model`
// runs it once per execution; in each, the threads take turns at every
// merilo::sync operation, a strategy decides who goes next and which store
// each atomic load reads, and a failure — a `MERILO_SYNC_ASSERT` that does
// not hold, an exception out of a thread or the body, a deadlock, a
// livelock, misuse of a mutex, a program that is not deterministic under
// its schedule — ends the search with the schedule that shows it.
//
//   #include <merilo/sync/model.hpp>
//   namespace ms = merilo::sync;
//
//   TEST(MessagePassing, TheFlagPublishesTheData) {
//     const ms::ModelResult r = ms::model([] {
//       ms::atomic<int> data{0};
//       ms::atomic<bool> flag{false};
//       ms::thread writer([&] {
//         data.store(42, std::memory_order_relaxed);
//         flag.store(true, std::memory_order_release);
//       });
//       if (flag.load(std::memory_order_acquire)) {
//         MERILO_SYNC_ASSERT(data.load(std::memory_order_relaxed) == 42);
//       }
//       writer.join();
//     });
//     EXPECT_TRUE(r.passed()) << r.report();
//   }
//
// The default search (`Search::exhaustive`) is source-DPOR with sleep
// sets over thread orders (docs/design/dpor.md) times every store each
// load may read under RC11 (docs/design/memory-model.md): a passing result
// with `complete` set means every execution was checked. When it finds a
// failure it looks again, cheapest first, for a failing execution with
// fewer preemptions and weak reads (a weak read counts as two
// preemptions), so the one reported is the simplest the budget allowed. `bounded`, `pct` and
// `random` search the way parallel's controlled runs do. A failure's `pin` replays it exactly
// (`ModelOptions::replay`), and `report()` prints a test that does.
//
// NOTE: what is modelled: merilo::sync atomics (of trivially copyable
// types up to 8 bytes; larger ones stay sequentially consistent), fences,
// mutexes, condition variables, thread start and join. Plain variables
// shared between threads are not: a step runs from one merilo::sync
// operation to the next as a unit, so a data race on a plain variable is
// neither found nor reported (ThreadSanitizer is the tool for it).
#ifndef MERILO_SYNC_MODEL_HPP
#define MERILO_SYNC_MODEL_HPP

#include <chrono>       // ModelOptions::budget
#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint64_t
#include <functional>   // the body
#include <optional>     // ModelResult::failure
#include <string>       // texts
#include <string_view>  // tags

#include <merilo/sync/sync.hpp>  // the types a body uses
#include <merilo/sync/tags.hpp>  // the failure tags

namespace merilo::sync {

/// How `model` chooses executions.
enum class Search : std::uint8_t {
  exhaustive,  ///< Every execution, once per Mazurkiewicz trace (DPOR), every store a load may
               ///< read.
  bounded,  ///< Every execution with at most `ModelOptions::preemptions` preemptions, fewest first.
  pct,      ///< Random priorities with `pct_depth` - 1 change points (PCT), random reads.
  random,   ///< A uniformly random enabled thread at each step, random reads.
};

/// "exhaustive", "bounded", ...
[[nodiscard]] const char* search_name(Search search) noexcept;

/// How `model` runs a body.
struct ModelOptions {
  /// The strategy (see `Search`).
  Search search = Search::exhaustive;
  /// At most this many executions (exhaustive stops incomplete beyond it).
  std::size_t max_executions = 100'000;
  /// Stop after this long (0: no time budget); the result is then incomplete.
  std::chrono::milliseconds budget{0};
  /// Scheduling points one execution may take before it is a livelock.
  std::size_t max_steps = 10'000;
  /// `Search::bounded`: the most preemptions a schedule may have.
  std::size_t preemptions = 2;
  /// `Search::pct`: the bug depth PCT targets (1..16).
  std::size_t pct_depth = 3;
  /// `Search::pct` and `Search::random`: the seed of the first execution.
  std::uint64_t seed = 1;
  /// Atomics follow the C++ memory model (RC11); false: sequentially
  /// consistent, as parallel's controlled runs are.
  bool memory_model = true;
  /// After the exhaustive search finds a failure, look for a simpler one
  /// (within `max_executions` more executions): fewest preemptions plus
  /// twice the weak choices, so a failure that sequential consistency can
  /// show is shown that way when it needs no more than one extra preemption.
  bool simplest = true;
  /// Exhaustive: when the search stops short (its budget) without a
  /// failure, fuzz schedules for at most this many more executions,
  /// starting from the fewest-preemption execution to each reads-from pair
  /// and keeping every input that makes a new one (0: no fuzzing).
  std::size_t fuzz_executions = 20'000;
  /// A failure's `pin`: run that one execution and nothing else.
  std::string replay;
  /// The body's name in the pinned test a report prints ("body" if empty);
  /// the glue macros set it to the expression they were given.
  std::string name;
};

/// A failed execution.
struct ModelFailure {
  std::string_view tag;  ///< sync::kAssertionTag, kDeadlockTag, ...
  /// Which part found it: "search" (the strategy), "simpler search" (the
  /// look for a cheaper failure after it), "fuzzer" (after an exhaustive
  /// search stopped short) or "replay".
  std::string_view found_by = "search";
  std::string message;          ///< What failed, where, on which thread.
  std::string pin;              ///< The execution's choices: `ModelOptions::replay` runs it again.
  std::size_t preemptions = 0;  ///< Preemptions in its schedule.
  /// Loads that read a store other than the newest in modification order,
  /// and stores placed other than last (choices only weak memory allows
  /// in that schedule).
  std::size_t weak_choices = 0;
  std::size_t execution = 0;  ///< Which execution (1-based) failed.
  std::string timeline;       ///< Every step, thread by thread.
  std::string memory;         ///< Each thread's atomic events, with the store each load read.
};

/// What `model` found.
struct ModelResult {
  Search search = Search::exhaustive;  ///< The strategy used.
  std::size_t executions = 0;          ///< Executions run (replays included).
  /// Every execution was checked (exhaustive and bounded only; bounded:
  /// every one within the bound).
  bool complete = false;
  std::size_t sleep_blocked = 0;        ///< Exhaustive: executions cut short by sleep sets.
  std::optional<ModelFailure> failure;  ///< The failure, if one was found.
  std::string error;                    ///< A usage error (bad options, a bad pin), or empty.
  const char* file = "";  ///< The file of the caller of `model` (where the pinned test goes).
  unsigned line = 0;      ///< Its line.
  std::string name;       ///< ModelOptions::name.

  /// No failure and no usage error.
  [[nodiscard]] bool passed() const noexcept { return !failure && error.empty(); }
  /// One line: the search, executions, and the verdict.
  [[nodiscard]] std::string summary() const;
  /// The summary, then for a failure its message, timeline, memory and a
  /// paste-ready test that replays it at the caller's line.
  [[nodiscard]] std::string report() const;
};

/// Runs `body` under control once per execution `options` asks for.
/// (`file` and `line` are the caller's, for the pinned test a report prints.)
[[nodiscard]] ModelResult model(const ModelOptions& options, const std::function<void()>& body,
                                const char* file = __builtin_FILE(),
                                unsigned line = __builtin_LINE());
/// `model` with the default options (exhaustive, memory model on).
[[nodiscard]] ModelResult model(const std::function<void()>& body,
                                const char* file = __builtin_FILE(),
                                unsigned line = __builtin_LINE());

/// Thrown by `MERILO_SYNC_ASSERT` when its condition does not hold; a
/// `model` run reports it as `sync.assertion`. Not a std::exception, so
/// `catch (const std::exception&)` in the code under test does not hide it.
struct AssertionFailed {
  const char* expression = "";  ///< The condition, as written.
  const char* file = "";        ///< Where.
  unsigned line = 0;            ///< Where.
};

}  // namespace merilo::sync

/// Fails the current `sync::model` execution when `condition` is false
/// (outside a model run it throws `merilo::sync::AssertionFailed` too).
#define MERILO_SYNC_ASSERT(condition)                                         \
  do {                                                                        \
    if (!(condition)) {                                                       \
      throw ::merilo::sync::AssertionFailed{#condition, __FILE__,             \
                                            static_cast<unsigned>(__LINE__)}; \
    }                                                                         \
  } while (false)

#endif  // MERILO_SYNC_MODEL_HPP
