// merilo/statem/statem.hpp — sequential model-based testing with integrated
// shrinking.
//
// You describe a system under test as a `Spec`: an abstract model, a
// generator of commands for a model, a precondition that admits or rejects a
// command in a model, a pure `next_model`, and the hooks that build a real
// system, run one command on it and judge the answer against the model.
// `check` draws admissible command lists, runs each on a fresh system, and
// when one fails shrinks it to a short list that fails the same way (same
// violation tag). `report` turns the failure into text that ends with one
// line that re-runs exactly the shrunk failure.
//
// Example (docs/examples/statem_quickstart.cpp is the whole, compiled
// program):
//
// clang-format off
//   struct StackSpec {
//     using model_type = std::vector<int>;
//     using command_type = Cmd;           // describable: see core/describe.hpp
//     using sut_type = Stack;
//     model_type initial() const { return {}; }
//     st::Gen<Cmd> command(const model_type&) const;
//     st::Admission precondition(const model_type& m, const Cmd& c) const;
//     model_type next_model(model_type m, const Cmd& c) const;
//     Stack new_sut() const { return Stack{}; }
//     st::MaybeViolation execute(Stack& s, const model_type& before, const Cmd& c) const;
//     st::MaybeViolation finish(Stack&, const model_type&) const { return st::ok(); }
//     void teardown(Stack&) const {}
//   };
//
//   st::CheckResult<Cmd> r = st::check(StackSpec{}, {.seed = 7});
//   if (r.failure) std::puts(st::report(*r.failure).c_str());
// clang-format on
//
// Seeds: there is no default; `CheckOptions::seed` is required (the
// environment variable `MERILO_STATEM_SEED` overrides it for every check in
// the process). Run i draws its list from `Rng{run_seed(seed, i), size}`,
// so `check_run(spec, config, i)` and `commands(spec, config, i)` reproduce
// run i alone.
//
// Sizes grow: run i has size `run_size(i, test_count)`, from about
// 100 / (test_count / 2) for run 0 up to 100 (`kMaxSize`) from the middle
// run on. A run's list is at most `ceil(max_commands * size / 100)` long
// (its length uniform from 1 to that), and the generators in gen.hpp scale
// integer ranges by the same size, so early runs are short with small
// values and later runs reach `max_commands` and the full ranges.
//
// Shrinking (docs/design/statem-shrinking.md): the empty list once; then
// deletions of contiguous chunks (a halving sweep first, then every chunk
// size), then value shrinks (commands whose values move together first,
// then each command alone), until nothing smaller fails with the original
// tag. Every accepted list is cut after its failing command. `converged`
// means 1-minimal: no single chunk deletion and no single value-shrink step
// of the result fails with the same tag.
//
// NOTE: an exception escaping any callback of the spec (or a generator,
// or `CheckOptions::shrink_stop`) is caught: in `new_sut`, `execute`,
// `finish`, `precondition`, `next_model` and `initial` it is a
// `statem.crash` violation that shrinks like any other; in `teardown` it is
// swallowed; in `shrink_stop` it stops shrinking. Nothing throws out of this
// header's functions except `std::bad_alloc`. `teardown` runs once for every
// system `new_sut` returned, on every path, and receives that system as the
// last command left it.
//
// NOTE: a check keeps no global state, so several may run at once on
// different threads as long as their specs do not share mutable state. The
// entry points (`check`, `check_run`, `commands`, `replay`) refuse to run
// from inside a callback of another merilo entry point on the same thread
// (`core::kReentryError`, as a usage error).
#ifndef MERILO_STATEM_STATEM_HPP
#define MERILO_STATEM_STATEM_HPP

#include <concepts>     // the Spec concept
#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint64_t
#include <functional>   // CheckOptions::shrink_stop
#include <optional>     // CheckOptions::seed, MaybeViolation
#include <string>       // Violation, report
#include <string_view>  // tag constants
#include <type_traits>  // std::remove_cvref_t
#include <utility>      // std::move
#include <vector>       // command lists

#include <merilo/core/describe.hpp>
#include <merilo/statem/gen.hpp>
#include <merilo/statem/violation.hpp>  // Violation, MaybeViolation, ok, fail, kCrashTag

namespace merilo::statem {

/// Whether a command may run in a model.
enum class Admission : std::uint8_t {
  admit,   ///< The command may run.
  reject,  ///< The command must not run here (it is redrawn or dropped).
};

/// The model type of spec `S` (`S::model_type`; `S` may carry cv-ref
/// qualifiers). statem, parallel and explore spell a type a spec or a system
/// names this way: `model_t`, `command_t`, `sut_t`, `response_t`, `world_t`.
template <class S>
using model_t = typename std::remove_cvref_t<S>::model_type;
/// The command type of spec `S` (`S::command_type`).
template <class S>
using command_t = typename std::remove_cvref_t<S>::command_type;
/// The system-under-test type of spec `S` (`S::sut_type`).
template <class S>
using sut_t = typename std::remove_cvref_t<S>::sut_type;

/// How shrinking ended.
enum class ShrinkEnd : std::uint8_t {
  converged,  ///< 1-minimal: no single chunk deletion or value shrink fails the same way.
  bound_hit,  ///< `max_shrinks`, the inadmissible cap or `shrink_stop` ended it early.
};

/// The answer of `CheckOptions::shrink_stop`.
enum class ShrinkStop : std::uint8_t {
  keep_shrinking,  ///< Go on.
  stop_shrinking,  ///< Report the best list so far (as `ShrinkEnd::bound_hit`).
};

/// Where in an execution a violation happened.
enum class FailureStage : std::uint8_t {
  setup,       ///< `initial` or `new_sut`, before any command.
  command,     ///< The command at `step` (precondition, execute or next_model).
  finish,      ///< `finish`, after every command ran.
  generation,  ///< While drawing the list (`initial`, `command` or a generator threw).
};

/// "setup", "command", "finish", "generation".
[[nodiscard]] std::string_view name(FailureStage stage) noexcept;
/// "converged", "bound hit".
[[nodiscard]] std::string_view name(ShrinkEnd end) noexcept;

/// The tag `replay` gives a list whose precondition rejects a command.
inline constexpr std::string_view kPreconditionTag = "statem.precondition";
/// At most this many inadmissible candidates are dropped per shrink, so a
/// shrink tree that never ends (or never admits) still terminates.
inline constexpr std::size_t kMaxInadmissible = 250'000;
/// Consecutive rejected (or given-up) draws that end a list early.
inline constexpr std::size_t kMaxConsecutiveRejections = 8;
/// The default `CheckOptions::max_commands` (see docs/statem.md for the
/// measurement behind it).
inline constexpr std::size_t kDefaultMaxCommands = 100;
/// The largest `CheckOptions::max_commands` a check accepts: a list is drawn,
/// kept and shrunk whole, so a bound past this is a usage error rather
/// than a run that exhausts memory.
inline constexpr std::size_t kMaxCommandsLimit = 100'000;

// clang-format off
/// What statem needs to know about a system under test.
///
/// A spec is a class with three member types and eight member functions
/// (called on a non-const lvalue of the spec, so they may be const or not):
///
///   model_type   an abstract, copyable model of the system's state;
///   command_type a plain, copyable value that `core::describe` can print
///                (`core::Describable`), never a closure;
///   sut_type     the system under test (move-constructible; wrap a
///                non-movable system in std::unique_ptr).
///
///   initial()                  -> model_type      the model before any command
///   command(model)             -> Gen<command_type>
///   precondition(model, cmd)   -> Admission
///   next_model(model, cmd)     -> model_type      pure: the model after cmd
///   new_sut()                  -> sut_type        a fresh system, sharing nothing
///   execute(sut&, model, cmd)  -> MaybeViolation  run cmd; `model` is the one BEFORE it
///   finish(sut&, model)        -> MaybeViolation  end-of-list checks
///   teardown(sut&)             -> void            release the system
///
/// NOTE: statem applies `next_model` itself, after `execute`; `execute` never
/// advances the model. `new_sut` is called once per execution (each run and
/// each executed shrink candidate), and `teardown` once per system built.
template <class S>
concept Spec =
    requires {
      typename S::model_type;
      typename S::command_type;
      typename S::sut_type;
    } &&
    std::copy_constructible<typename S::model_type> &&
    std::move_constructible<typename S::sut_type> &&
    std::copyable<typename S::command_type> &&
    core::Describable<typename S::command_type> &&
    requires(S& s, const typename S::model_type& m, const typename S::command_type& c,
             typename S::sut_type& sut) {
      { s.initial() } -> std::convertible_to<typename S::model_type>;
      { s.command(m) } -> std::convertible_to<Gen<typename S::command_type>>;
      { s.precondition(m, c) } -> std::same_as<Admission>;
      { s.next_model(m, c) } -> std::convertible_to<typename S::model_type>;
      { s.new_sut() } -> std::convertible_to<typename S::sut_type>;
      { s.execute(sut, m, c) } -> std::same_as<MaybeViolation>;
      { s.finish(sut, m) } -> std::same_as<MaybeViolation>;
      { s.teardown(sut) };
    };
// clang-format on

/// How a check runs. Build it with designated initialisers:
///   statem::CheckOptions{.seed = 42, .test_count = 200}
struct CheckOptions {
  /// Required: a check without a seed is a usage error. Seeds are full
  /// 64-bit values (0 is a seed like any other). `MERILO_STATEM_SEED`
  /// (decimal or 0x-hex) in the environment overrides it.
  std::optional<std::uint64_t> seed = std::nullopt;
  /// Runs (command lists) per check; at least 1. Also sets how fast sizes
  /// grow: run i has size `run_size(i, test_count)`.
  std::size_t test_count = 100;
  /// The longest list, reached at full size; in [1, kMaxCommandsLimit]. A
  /// run's list may end earlier when `kMaxConsecutiveRejections` draws in a
  /// row are rejected.
  std::size_t max_commands = kDefaultMaxCommands;
  /// Executions the shrinker may spend (retries included).
  std::size_t max_shrinks = 2000;
  /// Extra executions of a shrink candidate that did not fail with the
  /// original tag: a candidate fails if any of its `1 + shrink_retries`
  /// executions does. For systems whose failures are not deterministic.
  std::size_t shrink_retries = 0;
  /// Asked just before each shrink execution (never before the initial
  /// run, never for a dropped candidate); `stop_shrinking` keeps the best
  /// list so far. Empty means always keep shrinking.
  std::function<ShrinkStop()> shrink_stop = nullptr;
  /// A replay token from a report's last line: `check` then draws that
  /// run's list, rebuilds the shrunk list from it and executes it once,
  /// without running or shrinking anything else. `MERILO_STATEM_REPLAY` in
  /// the environment overrides it.
  std::string replay = {};
};

/// Every field of a failure except the two command lists: what the report
/// renderer (compiled once, in statem/src) needs besides the printed lists.
struct FailureInfo {
  std::uint64_t seed = 0;          ///< The seed of the check.
  std::size_t run = 0;             ///< Which run failed (0-based).
  std::size_t test_count = 0;      ///< `CheckOptions::test_count` (sets the run's size).
  std::size_t max_commands = 0;    ///< `CheckOptions::max_commands`, needed to reproduce.
  std::size_t max_shrinks = 0;     ///< `CheckOptions::max_shrinks` of the shrink.
  std::size_t shrink_retries = 0;  ///< `CheckOptions::shrink_retries` of the shrink.
  std::uint64_t size = 0;          ///< The run's size (`run_size`).
  Violation violation;             ///< What the shrunk list broke (same tag as the original).
  Violation original_violation;    ///< What the original list broke.
  FailureStage stage = FailureStage::command;  ///< Where the shrunk list failed.
  std::size_t step = 0;  ///< Index of the failing command in `shrunk` (FailureStage::command).
  FailureStage original_stage = FailureStage::command;  ///< Where the original list failed.
  std::size_t original_step = 0;         ///< Index of the failing command in `original`.
  std::size_t shrinks = 0;               ///< Candidates accepted (each one shorter or simpler).
  std::size_t candidates = 0;            ///< Executions spent shrinking (retries included).
  std::size_t inadmissible = 0;          ///< Candidates dropped unexecuted by a precondition.
  ShrinkEnd end = ShrinkEnd::converged;  ///< Why shrinking stopped.
  bool replayed = false;                 ///< Rebuilt from a replay token, not shrunk.
  std::string replay_token;              ///< Re-runs exactly `shrunk` (`CheckOptions::replay`).
};

/// A failing run, shrunk: `FailureInfo` plus the two command lists.
template <class Cmd>
struct Failure : FailureInfo {
  std::vector<Cmd> original;  ///< The list run `run` drew (= `commands(spec, config, run)`).
  std::vector<Cmd> shrunk;    ///< The shortest failing list found.
};

/// What `check` and `check_run` found.
template <class Cmd>
struct CheckResult {
  /// A usage error ("CheckOptions::seed is required", an empty generator
  /// range, ...). When set, no failure is reported.
  std::string error;
  /// Set when every run passed but the check did not really test: more
  /// than half of its runs were starved (see `starved`). `ok()` is then
  /// false.
  std::string unhealthy;
  /// Runs executed (the failing one included).
  std::size_t runs = 0;
  /// Runs whose list ended with fewer than half of the commands its length
  /// asked for, because `kMaxConsecutiveRejections` draws in a row were
  /// rejected or gave up (an empty list is always starved).
  std::size_t starved = 0;
  /// Commands executed over all runs (shrinking excluded).
  std::size_t commands_run = 0;
  /// The first failing run, shrunk; empty when every run passed.
  std::optional<Failure<Cmd>> failure;

  /// No usage error, no health failure and no failing run.
  [[nodiscard]] bool ok() const noexcept { return error.empty() && unhealthy.empty() && !failure; }
};

/// What `commands` returns: run i's list, or a usage error.
template <class Cmd>
struct Commands {
  std::string error;                ///< A usage error; `list` is then empty.
  std::vector<Cmd> list;            ///< The list, exactly as the run draws it.
  MaybeViolation generation_crash;  ///< Set when a callback threw while drawing.
};

/// What one execution of a list did (`replay`).
struct Execution {
  std::string error;                          ///< A usage error (re-entry); nothing ran.
  MaybeViolation violation;                   ///< Empty when the list passed.
  FailureStage stage = FailureStage::finish;  ///< Where it failed (meaningless when it passed).
  std::size_t step = 0;  ///< The failing command's index (FailureStage::command).

  /// The list ran and passed.
  [[nodiscard]] bool ok() const noexcept { return error.empty() && !violation.has_value(); }
};

/// The size of run `run` in a check of `test_count` runs: grows linearly
/// from `ceil(kMaxSize / ramp)` to `kMaxSize`, reached at run `ramp - 1`,
/// where `ramp = max(1, test_count / 2)`.
[[nodiscard]] constexpr std::uint64_t run_size(std::size_t run, std::size_t test_count) noexcept {
  const std::uint64_t ramp = test_count / 2 > 1 ? test_count / 2 : 1;
  const std::uint64_t grown = (kMaxSize * (static_cast<std::uint64_t>(run) + 1) + ramp - 1) / ramp;
  return grown < kMaxSize ? grown : kMaxSize;
}

/// The longest list of a run of size `size`: `scale(max_commands, size)`
/// (`ceil(max_commands * size / kMaxSize)`), at least 1.
[[nodiscard]] constexpr std::size_t run_length_bound(std::size_t max_commands,
                                                     std::uint64_t size) noexcept {
  const std::uint64_t n = scale(static_cast<std::uint64_t>(max_commands), size);
  return n > 0 ? static_cast<std::size_t>(n) : std::size_t{1};
}

/// Runs up to `config.test_count` lists and shrinks the first failing one
/// (or, with a replay token, re-runs that one shrunk failure).
template <class S>
requires Spec<std::remove_cvref_t<S>>
[[nodiscard]] CheckResult<command_t<S>> check(
    S&& spec, const CheckOptions& config);

/// Runs run `run` of the check `config` describes, alone (and shrinks it if
/// it fails): the same list and the same failure as in `check`.
template <class S>
requires Spec<std::remove_cvref_t<S>>
[[nodiscard]] CheckResult<command_t<S>> check_run(
    S&& spec, const CheckOptions& config, std::size_t run);

/// The list run `run` draws, without executing anything (no system is
/// built). Equal to that run's `Failure::original`.
template <class S>
requires Spec<std::remove_cvref_t<S>>
[[nodiscard]] Commands<command_t<S>> commands(
    S&& spec, const CheckOptions& config, std::size_t run);

/// Executes exactly `list` once on a fresh system. A command its
/// precondition rejects is a `statem.precondition` violation at that step.
template <class S>
requires Spec<std::remove_cvref_t<S>>
[[nodiscard]] Execution replay(
    S&& spec, const std::vector<command_t<S>>& list);

/// A multi-line report of `failure`: seed and run, the shrunk list, the
/// original list (cut to its first and last lines when long), the failing
/// step, the violation, shrink statistics, and as its last line the replay
/// line to paste. The same failure always gives the same text.
template <class Cmd>
[[nodiscard]] std::string report(const Failure<Cmd>& failure);

}  // namespace merilo::statem

#include <merilo/statem/detail/replay_token.hpp>
#include <merilo/statem/detail/report.hpp>
#include <merilo/statem/detail/statem_inl.hpp>

#endif  // MERILO_STATEM_STATEM_HPP
