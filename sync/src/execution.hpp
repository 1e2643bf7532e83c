// execution.hpp — one execution of a `sync::model` body under a strategy,
// and the failure it shows: what every entry point (the searches of
// model.cpp, the schedule fuzzer's inputs) shares. Private to sync/src.
#ifndef MERILO_SYNC_SRC_EXECUTION_HPP
#define MERILO_SYNC_SRC_EXECUTION_HPP

#include <chrono>      // the fuzzer's deadline
#include <cstddef>     // std::size_t
#include <cstdint>     // std::uint8_t, std::uint64_t
#include <exception>   // a thread's failure
#include <functional>  // the body
#include <memory>      // the shared memory model
#include <optional>    // a misuse, a failure
#include <string>      // texts
#include <vector>      // choices, steps

#include <merilo/sync/detail/controller.hpp>    // Strategy, Choice, StepRecord
#include <merilo/sync/detail/memory_model.hpp>  // MemoryModel
#include <merilo/sync/model.hpp>                // ModelOptions, ModelFailure

namespace merilo::sync::detail {

/// What one execution did.
struct Execution {
  RunStatus status = RunStatus::running;
  std::exception_ptr failure;
  std::uint8_t failed_thread = 0;
  std::optional<Misuse> misuse;
  std::string description;
  std::vector<Choice> trail;
  std::vector<StepRecord> log;
  std::string memory;
  std::string timeline;  ///< Controller::timeline.
  /// A hash of each reads-from pair (location, store event, load event).
  std::vector<std::uint64_t> reads_from;
  /// A hash of each step as (thread, point) coverage: the thread, its k-th
  /// step, the operation, whether it was switched to there.
  std::vector<std::uint64_t> points;
  /// The thread choices (where two or more threads could go), in order.
  std::vector<Decision> decisions;
  /// For each step of `log` that made a load event: the step whose store it
  /// read, or -1 for an initial value.
  std::vector<std::pair<std::uint32_t, std::int64_t>> reads;
  std::vector<Footprint> left;  ///< Each unfinished thread's pending step, by thread.
  std::size_t threads = 0;
};

/// The memory model one search's executions share (its buffers keep their
/// capacity from one execution to the next).
struct Memory {
  std::unique_ptr<MemoryModel> model;
};

/// Runs `body` once under `strategy`.
[[nodiscard]] Execution run_once(Strategy& strategy, const ModelOptions& options,
                                 const std::function<void()>& body, Memory& memory);

/// The failure `e` shows, if any (`diverged`: the strategy found the
/// program not deterministic under its choices).
[[nodiscard]] std::optional<ModelFailure> classify(const Execution& e, bool diverged);

/// The schedule fuzzer (fuzz.cpp): seeds from the fewest-preemption
/// search, then mutated inputs, keeping each that makes a new reads-from
/// pair, for at most `executions` executions in all (counted in `count`);
/// the first failure, found by "fuzzer". Stops at `until` too.
[[nodiscard]] std::optional<ModelFailure> fuzz_schedules(
    const ModelOptions& options, const std::function<void()>& body, std::size_t executions,
    std::chrono::steady_clock::time_point until, std::size_t& count, Memory& memory);

}  // namespace merilo::sync::detail

#endif  // MERILO_SYNC_SRC_EXECUTION_HPP
