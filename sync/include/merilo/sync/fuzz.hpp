// merilo/sync/fuzz.hpp — a plain threaded test as a fuzz target over its
// schedules: fuzzer bytes choose the execution, and which store each load
// read is the coverage that tells the fuzzer an input did something new.
//
// merilo's design is that a search covers what it can and hands a fuzzer
// the shortest way to everything it reached. For threads the search is
// `sync::model`'s; what it reached is the set of reads-from pairs (this
// load read that store), the coverage that matters for concurrency bugs;
// and the shortest way is the execution with the fewest preemptions that
// first made each pair. `seed_inputs` writes those
// executions as inputs, `run_input` runs one input:
//
//   extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
//     const auto run = merilo::sync::run_input({}, body, {data, size});
//     // feed run.reads_from to the fuzzer as extra coverage; on a failure
//     // print run.result.report() (its pin replays the input under
//     // sync::model) and abort.
//   }
//
// Input format: at each step where two or more threads are enabled, the
// next byte modulo their number picks one, in thread order; at each
// memory-model choice (a load with two or more stores it may read, a store
// with two or more places), the next byte modulo the candidates picks one.
// Past the last byte every choice is the default (the running thread goes
// on; the newest store), so every input is a schedule and a short input is
// a schedule's beginning.
#ifndef MERILO_SYNC_FUZZ_HPP
#define MERILO_SYNC_FUZZ_HPP

#include <cstddef>     // std::size_t
#include <cstdint>     // std::uint8_t, std::uint64_t
#include <functional>  // the body
#include <span>        // an input
#include <vector>      // inputs, coverage

#include <merilo/sync/model.hpp>  // ModelOptions, ModelResult, ModelFailure

namespace merilo::sync {

/// What one input did.
struct FuzzRun {
  /// One execution (`executions` is 1): its failure, if any, with a pin
  /// that replays it under `model` (`ModelOptions::replay`).
  ModelResult result;
  /// A hash of each reads-from pair the execution made: the store read (its
  /// thread and position among that thread's atomic events, or "an initial
  /// value") and the load (likewise), names no schedule changes. With
  /// `ModelOptions::memory_model` off too: then each load read the newest
  /// store of its interleaving.
  std::vector<std::uint64_t> reads_from;
  /// A hash of each step, as (thread, point) coverage: the thread, which of
  /// its steps it is (its k-th), the operation it starts with, and whether
  /// another thread ran the step just before (the thread was switched to
  /// there). An input that makes a thread take its k-th step right after a
  /// switch where no input did before has reached a new interleaving point.
  std::vector<std::uint64_t> points;
};

/// Runs `body` once under the choices `input` encodes (see the top of
/// this file). `options.search`, `max_executions`, `budget` and `replay`
/// do not apply.
[[nodiscard]] FuzzRun run_input(const ModelOptions& options, const std::function<void()>& body,
                                std::span<const std::uint8_t> input,
                                const char* file = __builtin_FILE(),
                                unsigned line = __builtin_LINE());

/// What `seed_inputs` found.
struct Seeds {
  std::vector<std::vector<std::uint8_t>> inputs;  ///< The seeds, in the order found.
  std::size_t executions = 0;                     ///< Executions the search ran.
  /// Every execution ran: none was left out by the preemption bound or the
  /// execution budget.
  bool complete = false;
};

/// Inputs to start a fuzzer from: the search runs executions with the
/// fewest preemptions first (up to `options.preemptions`, every memory-model
/// choice, at most `options.max_executions` executions), and
/// the first execution to make each reads-from pair is written as an input,
/// once. An execution that fails is written too (it is a crash input).
[[nodiscard]] Seeds seed_inputs(const ModelOptions& options, const std::function<void()>& body);

/// What `fuzz` found.
struct FuzzResult {
  /// `executions`: inputs run; `failure`: the first one that failed
  /// (`found_by` "fuzzer"), with a pin that replays it under `model`.
  ModelResult result;
  /// Inputs in the corpus at the end: the seeds, the empty input when
  /// there were none, and every input kept for new coverage.
  std::size_t corpus = 0;
};

/// The in-process schedule fuzzer. Runs each of `seeds` (the empty input
/// when there are none), then mutates inputs of its corpus, and keeps every
/// input that makes a reads-from pair or a (thread, point) pair no input
/// made before (`FuzzRun`). Half the mutations are *reads-from edits* read
/// off the parent's execution: switch to another thread (the reader, where
/// it can run) just after a store another thread read, or switch to a
/// reader just before the first store of its location, then let the
/// defaults run on; the rest are byte edits (insert, change, drop, cut),
/// most of them just after the byte where the parent differed from its own
/// parent. The newest inputs are picked more often. Stops at
/// the first failure, after `options.max_executions` executions (seeds
/// included) or after `options.budget`; `options.seed` drives the
/// mutations. `options.search`, `replay` and `fuzz_executions` do not
/// apply.
[[nodiscard]] FuzzResult fuzz(const ModelOptions& options, const std::function<void()>& body,
                              const std::vector<std::vector<std::uint8_t>>& seeds,
                              const char* file = __builtin_FILE(),
                              unsigned line = __builtin_LINE());

}  // namespace merilo::sync

#endif  // MERILO_SYNC_FUZZ_HPP
