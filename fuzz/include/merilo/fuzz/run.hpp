// merilo/fuzz/run.hpp — runs one fuzz input against a system.
//
// `run(sys, input, max_depth)` resets `sys` and takes one step per choice
// of `input` (see input.hpp), checking the invariants after every step and
// reporting the same violations the explorer does: a broken invariant, a
// deadlock (nothing enabled and `settled()` false), an apply error, an
// undeclared mode change, and a crash (an exception escaping the adapter).
// Each step is taken by the explorer's own routine (explore/step.hpp), so a
// violation reads the same, with the same trace, as when `explore` or
// `replay` finds it.
//
// The drain. When the choices run out before `max_depth` steps, the run
// goes on as if the input continued with zero choices — each step takes the
// lowest-numbered enabled unmasked kind — until `settled()` is true, nothing
// is enabled, or `max_depth` steps were taken in all. So a short input still
// drives the system to an end where end-state bugs and deadlocks show, and
// the mask still steers the drain (a masked kind is drained last).
// `max_depth` bounds the whole run, drain included; it is required.
//
// Example:
//
//   mutex::System<> sys;
//   merilo::fuzz::Run r = merilo::fuzz::run(sys, bytes, 40);
//   if (r.violation.found()) puts(merilo::explore::format(sys, r.trace).c_str());
//
// NOTE: `run` never throws and never calls back into itself; like every
// merilo entry point it refuses to be called from inside an adapter
// callback. It is as deterministic as the system it runs.
#ifndef MERILO_FUZZ_RUN_HPP
#define MERILO_FUZZ_RUN_HPP

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <merilo/explore/step.hpp>
#include <merilo/explore/system.hpp>
#include <merilo/explore/trace.hpp>
#include <merilo/explore/violation.hpp>
#include <merilo/fuzz/input.hpp>

namespace merilo::fuzz {

/// Why a run stopped. `none` (zero) only in a run that did not start.
enum class RunEnd : std::uint8_t {
  none = 0,
  violation,  ///< A rule broke; see `Run::violation`.
  settled,    ///< The choices ran out and the drain reached a settled world.
  quiescent,  ///< Nothing was enabled and the system was settled.
  max_depth,  ///< `max_depth` steps were taken.
  error,      ///< A usage error; see `Run::error`.
};

/// "violation", "settled", ...
[[nodiscard]] std::string_view name(RunEnd stop) noexcept;

/// What one input did.
struct Run {
  /// A usage error (max_depth 0, a bad invariant list, re-entry). The run
  /// did not start.
  std::string error;
  /// Every kind taken from `reset()`, drain included. For a violation it is
  /// the trace to it, as in `explore::Violation::trace`: it ends with the
  /// step that broke the rule, also when that step threw.
  explore::Trace trace;
  /// How many of `trace`'s steps the input's own choices decided; the rest
  /// were drained.
  std::size_t input_steps = 0;
  /// Why the run stopped.
  RunEnd stop = RunEnd::none;
  /// The rule broken, if any.
  explore::Violation violation;

  /// No usage error and no violation.
  [[nodiscard]] bool ok() const noexcept { return error.empty() && !violation.found(); }
  /// Steps taken by the drain.
  [[nodiscard]] std::size_t drained() const noexcept { return trace.size() - input_steps; }
  /// One line: "ok: 12 steps (9 from the input, 3 drained), stopped: settled"
  /// or the violation.
  [[nodiscard]] std::string summary() const;
};

/// Runs one input against a system, reusing its buffers across inputs (the
/// hot path of a fuzz target).
///
/// NOTE: once its buffers have grown to the longest run so far, a runner
/// does not allocate: `run` fills the runner's own `Run` and returns it by
/// reference, valid until the next `run` (copy it to keep it). Whatever the
/// system itself allocates in `enabled`, `apply`, `settled` or its
/// invariants is its own; the examples allocate nothing on a step that
/// breaks no rule (tests/fuzz/alloc_test.cpp counts).
template <explore::System S>
class Runner {
 public:
  /// A runner for `sys` (kept by reference) taking at most `max_depth`
  /// steps per input. Reads `sys.invariants()` once, here.
  Runner(S& sys, std::size_t max_depth) : sys_(&sys), stepper_(sys), max_depth_(max_depth) {}

  /// Runs `input` and returns what it did, held by the runner until the
  /// next call. Never throws (but `std::bad_alloc` while the buffers grow).
  [[nodiscard]] const Run& run(std::span<const std::uint8_t> input);

 private:
  void steps(Input& in, std::size_t kinds, Run& out);

  S* sys_;
  explore::Stepper<S> stepper_;
  std::size_t max_depth_;
  std::vector<explore::Kind> enabled_;
  std::vector<explore::Kind> candidates_;
  Run last_;
};

/// Resets `sys` and runs `input` on it for at most `max_depth` steps, drain
/// included. Never throws: usage errors land in `Run::error`.
template <explore::System S>
[[nodiscard]] Run run(S& sys, std::span<const std::uint8_t> input, std::size_t max_depth) {
  return Runner<S>(sys, max_depth).run(input);
}

namespace detail {
/// The usage error for `max_depth`, or "".
[[nodiscard]] std::string check_max_depth(std::size_t max_depth);
}  // namespace detail

}  // namespace merilo::fuzz

#include <merilo/fuzz/detail/run_inl.hpp>

#endif  // MERILO_FUZZ_RUN_HPP
