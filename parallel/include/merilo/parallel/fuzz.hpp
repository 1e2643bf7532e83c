// merilo/parallel/fuzz.hpp — one case of a parallel spec under one schedule
// that fuzzer bytes choose, judged by the linearizability checker.
//
// `parallel::check` draws cases and searches each one's schedules itself.
// A fuzzer wants the opposite split: it hands over bytes and expects one
// execution back. `run_input` is that execution. The input's first two
// bytes pick the case: run `(b0 | b1 << 8) % cases` of a check with
// `FuzzOptions::seed` (the very case `parallel::generate_case` draws); the
// rest is a schedule in `sync::run_input`'s format — at each step where
// two or more threads can run, the next byte modulo their number picks
// one; at each memory-model choice, the next byte picks the store a load
// reads. Past the last byte every choice is the default, so every input
// runs and a short input is a valid one (the empty input is case 0 under
// the default schedule).
//
// The case runs as `parallel::check` runs it under control: a fresh
// system, the prefix on branch 0's thread, then the branches racing, one
// thread each; the calls' logical instants go to `linearize::check` from
// the model after the prefix; `finish` after a linearizable race. The
// verdict tags are parallel's (`parallel.not_linearizable`,
// `parallel.deadlock`, a prefix postcondition's own tag, ...). What the
// execution did is `sync::FuzzRun`'s: which store each load read (the
// coverage a fuzzer is fed), and for a failure every step taken.
//
//   const auto r = merilo::parallel::run_input(counter::Spec<>{}, {.seed = 1}, bytes);
//   if (!r.passed()) std::puts(r.report().c_str());   // ends with a pinned test
//
// A failure's `token` pins it: `replay_input(spec, token)` runs the same
// case under the same choices, exactly, and the report prints a test that
// does. `seed_inputs` gives a fuzzer's first corpus: for each of the first
// `seed_cases` cases, the fewest-preemption execution to each reads-from
// pair the bounded search makes (`sync::seed_inputs`), as inputs.
// `merilo/fuzz/parallel.hpp` makes all this a libFuzzer target in one macro.
//
// NOTE: with `FuzzOptions::memory_model` (the default) the atomics follow
// RC11, as under `sync::model`, so a missing release or acquire can show;
// `parallel::check` runs them sequentially consistent. The instants the
// checker judges by are read from one atomic counter the race shares
// (an acq_rel fetch_add at each invocation and each return), so "this
// call returned before that one began" is also "its return happens
// before that invocation": the later call sees the earlier one's writes,
// as real time promises. Without that edge the memory model would let a
// later call read a stale value, and a correct relaxed counter would be
// judged by reads no real-time order allows.
//
// NOTE: there is no deadline: a call that loops without reaching a
// merilo::sync operation hangs the execution (libFuzzer's -timeout reports
// it). The system is written against merilo::sync, as for a controlled
// `parallel::check`.
#ifndef MERILO_PARALLEL_FUZZ_HPP
#define MERILO_PARALLEL_FUZZ_HPP

#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint8_t, std::uint64_t
#include <optional>     // the verdict
#include <span>         // an input
#include <string>       // texts
#include <string_view>  // tokens
#include <type_traits>  // std::remove_cvref_t
#include <vector>       // inputs, histories

#include <merilo/parallel/failure.hpp>  // Evidence, History, StuckCall
#include <merilo/parallel/spec.hpp>     // Spec, Case
#include <merilo/sync/fuzz.hpp>         // the schedule's format and its execution

namespace merilo::parallel {

/// Case-header bytes at the front of an input.
inline constexpr std::size_t kFuzzHeaderBytes = 2;
/// The most cases an input can pick among (two header bytes).
inline constexpr std::size_t kMaxFuzzCases = std::size_t{1} << 16;

/// How fuzz inputs become cases and executions, and how the corpus is
/// seeded.
struct FuzzOptions {
  /// Names the target in reports and in the pinned test's name.
  std::string name{};
  /// The seed of the check whose runs are the cases (`CheckOptions::seed`).
  std::uint64_t seed = 1;
  /// The header picks one of runs 0..cases-1 (1..kMaxFuzzCases).
  std::size_t cases = 100;
  std::size_t branches = 2;    ///< As `CheckOptions::branches` (clamped to 2..3).
  std::size_t max_prefix = 6;  ///< As `CheckOptions::max_prefix`.
  std::size_t max_branch = 4;  ///< As `CheckOptions::max_branch` (clamped to 1..6).
  /// Atomics follow the C++ memory model (RC11), the calls ordered by the
  /// race's clock; false: sequentially consistent, as `parallel::check`'s
  /// controlled runs. Without it no load has a choice, and the reads-from
  /// coverage and seeds are empty but for each case's default schedule.
  bool memory_model = true;
  /// Scheduling points one execution may take before it is a livelock.
  std::size_t max_steps = 100'000;
  /// Postcondition evaluations the checker may spend per race.
  std::uint64_t search_budget = 100'000;
  /// Seeding: cases 0..seed_cases-1 are searched (at most `cases`).
  std::size_t seed_cases = 20;
  /// Seeding: the most preemptions a searched schedule may have.
  std::size_t seed_preemptions = 1;
  /// Seeding: executions per case at most.
  std::size_t seed_executions = 500;
  /// The expression the pinned test builds the spec with; empty: the
  /// spec's type name followed by `{}`.
  std::string spec_text{};
};

/// What one input did, apart from the commands and responses.
struct FuzzRunInfo {
  /// A usage error (bad options, a token that does not parse or rebuilds
  /// another case): nothing was judged.
  std::string error;
  std::uint64_t seed = 0;      ///< The check's seed.
  std::size_t run = 0;         ///< The case: that check's run `run`.
  std::size_t branches = 0;    ///< Generation settings used (clamped).
  std::size_t max_prefix = 0;  ///< See `branches`.
  std::size_t max_branch = 0;  ///< See `branches`.
  bool memory_model = true;    ///< `FuzzOptions::memory_model`.
  /// The schedule part of the input (without the header).
  std::vector<std::uint8_t> schedule;
  /// What the case broke (empty when it passed).
  MaybeViolation violation;
  Evidence evidence = Evidence::unrecorded;  ///< Where it broke.
  std::size_t prefix_step = 0;               ///< The failing prefix call (Evidence::in_prefix).
  std::string explanation;                   ///< The checker's words (Evidence::raced).
  std::vector<StuckCall> stuck;              ///< Each branch's next call at the dead end.
  /// The execution under the controller: the reads-from hashes it made and,
  /// for a failure, its steps, atomics, preemptions and weak choices.
  sync::FuzzRun execution;
  /// For a failure: the pin (see `replay_input`), carrying the shortest
  /// prefix of `schedule` that makes the same execution.
  std::string token;
  std::string name;       ///< `FuzzOptions::name`.
  std::string spec_text;  ///< How the pinned test builds the spec.

  /// No usage error and no violation.
  [[nodiscard]] bool passed() const noexcept { return error.empty() && !violation; }
};

/// What one input did.
template <class Cmd, class Resp>
struct FuzzRun : FuzzRunInfo {
  Case<Cmd> tested;                           ///< The case, as drawn.
  std::vector<Resp> prefix_responses;         ///< The prefix calls' responses, as far as they ran.
  std::vector<History<Cmd, Resp>> histories;  ///< The branches' calls, as they ran.

  /// The verdict, the case, the race, the checker's explanation, every
  /// step of the schedule, and for a failure a pinned test that replays it.
  [[nodiscard]] std::string report() const;
};

/// What `seed_inputs` found.
struct FuzzSeeds {
  std::string error;  ///< A usage error: nothing was searched.
  /// The inputs (each with its case header), in the order found.
  std::vector<std::vector<std::uint8_t>> inputs;
  std::size_t executions = 0;  ///< Executions the searches ran.
  std::size_t cases = 0;       ///< Cases searched.
  /// Every case was searched and every search ran each execution within its
  /// preemption bound (none left out by `seed_executions` or the bound).
  bool complete = false;
};

/// The header that makes an input pick run `run` (`run % cases` is taken).
[[nodiscard]] std::vector<std::uint8_t> case_header(std::size_t run);

/// Runs the case and schedule `input` encodes (see the top of this file).
template <class S>
requires Spec<std::remove_cvref_t<S>>
[[nodiscard]] FuzzRun<command_t<S>, response_t<S>> run_input(S&& spec, const FuzzOptions& options,
                                                             std::span<const std::uint8_t> input);

/// Runs a failure's `token` again: the same case (refused, as a usage
/// error, when the spec now draws another one) under the same choices.
/// The token gives the seed, the case and the generation settings;
/// `options` the budgets and the names. The result fails while the bug
/// is there.
///
///   pf1:SEED:RUN:BRANCHES:MAX_PREFIX:MAX_BRANCH:MEMORY:SCHEDULE:CHECK
///
/// MEMORY is `rc11` or `sc`; SCHEDULE the schedule bytes in hex (`-` for
/// none); CHECK 16 hex digits hashing the fields before it and the case's
/// commands in words, as a `parallel::pin_token`'s does.
template <class S>
requires Spec<std::remove_cvref_t<S>>
[[nodiscard]] FuzzRun<command_t<S>, response_t<S>> replay_input(S&& spec, std::string_view token,
                                                                const FuzzOptions& options = {});

/// A first corpus: for each case of 0..seed_cases-1, its default schedule
/// and the fewest-preemption execution to each reads-from pair the bounded
/// search made, written once (see `sync::seed_inputs`). A search's failing
/// execution is an input too: run each through `run_input` to see which.
template <class S>
requires Spec<std::remove_cvref_t<S>>
[[nodiscard]] FuzzSeeds seed_inputs(S&& spec, const FuzzOptions& options);

}  // namespace merilo::parallel

#include <merilo/parallel/detail/fuzz_inl.hpp>

#endif  // MERILO_PARALLEL_FUZZ_HPP
