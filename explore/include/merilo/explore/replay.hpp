// merilo/explore/replay.hpp — following a trace, and printing it for people.
//
// `format(sys, trace)` replays a trace (trace.hpp) and prints one aligned
// row per step — the step number, what the step did, every machine's state
// after it and, when the system has `show()` (system.hpp), the world's data
// after a second bar — then the rule it broke:
//
//   #1 coin | turnstile:unlocked
//   #2 push | turnstile:locked
//   #3 push | turnstile:locked
//   VIOLATION invariant "no free pass" at step 3: pushed through while locked
//
// `replay(sys, trace)` follows the same trace and says whether it still
// breaks a rule. Pin every counterexample in a test that replays it: the test
// fails while the bug is there, and also when the system changed so that the
// trace no longer fits (a kind out of range or not enabled), which is the
// signal to find a new one.
//
// Example:
//
//   merilo::explore::Replayed r = merilo::explore::replay(sys, {0, 1, 1});
//   EXPECT_TRUE(r.ok()) << merilo::explore::format(sys, {0, 1, 1});
#ifndef MERILO_EXPLORE_REPLAY_HPP
#define MERILO_EXPLORE_REPLAY_HPP

#include <cstddef>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include <merilo/core/crash.hpp>
#include <merilo/core/reentry.hpp>
#include <merilo/explore/detail/fingerprint.hpp>
#include <merilo/explore/step.hpp>
#include <merilo/explore/system.hpp>
#include <merilo/explore/trace.hpp>
#include <merilo/explore/violation.hpp>

namespace merilo::explore {

/// What following a trace did.
struct Replayed {
  /// The trace does not fit the system (a kind out of range, or not enabled
  /// where the trace takes it), or a usage error. The replay stopped there.
  std::string error;
  /// The first rule broken on the way, including a deadlock at the end and
  /// nondeterminism (the trace is followed twice and must reach the same
  /// world).
  Violation violation;
  /// Steps applied before the replay stopped.
  std::size_t steps = 0;

  /// The trace fits and breaks no rule.
  [[nodiscard]] bool ok() const noexcept { return error.empty() && !violation.found(); }
  /// One line: "ok", the error, or the violation.
  [[nodiscard]] std::string summary() const;
};

/// Resets `sys`, follows `trace` checking invariants after every step, checks
/// the last world for a deadlock, then follows it once more to check that it
/// reaches the same world. Never throws.
template <System S>
[[nodiscard]] Replayed replay(S& sys, const Trace& trace);

/// Replays `trace` on `sys` and returns the aligned table shown in the
/// header overview, ending with the violation line (or "OK"). When the trace
/// does not fit, the last lines say so and what to do about it. Never throws.
template <System S>
[[nodiscard]] std::string format(S& sys, const Trace& trace);

/// A test that replays `trace`, ready to paste into a test file: a GoogleTest
/// `TEST(suite, name)` that builds the system with `system_expr` and expects
/// `merilo::testing::expect_replay_ok` to pass.
[[nodiscard]] std::string replay_test(const std::string& suite, const std::string& name,
                                      const std::string& system_expr, const Trace& trace);

/// The name of a pasted replay test: `<prefix>_<kind>`, spaces in the
/// kind's name made underscores ("Mutex_apply_error").
[[nodiscard]] std::string replay_test_name(std::string_view prefix, ViolationKind kind);

namespace detail {

/// One row of a formatted trace.
struct Row {
  std::string description;
  std::string tuple;
  std::string show;  // the system's show(), when it has one
};

/// The table text for `rows` and the outcome line for `replayed`.
[[nodiscard]] std::string format_rows(const std::vector<Row>& rows, const Replayed& replayed);

/// "the trace does not fit: step 4 takes kind 7 but ...": why kind `k`
/// cannot be taken at `step` (1-based); `description` is "" when the kind
/// is out of range.
[[nodiscard]] std::string does_not_fit(std::size_t step, Kind k, std::size_t kinds,
                                       const std::string& description);

/// Follows `trace` once with `stepper`; calls `on_step(kind)` before each
/// step and `after_step()` after one that did not crash. Fills `out` and
/// returns the final fingerprint.
template <System S, class Before, class After>
Fingerprint walk(Stepper<S>& stepper, const Trace& trace, Replayed& out, Before&& on_step,
                 After&& after_step) {
  S& sys = stepper.system();
  if (stepper.start(out.violation) == StepEnd::broke) return {};
  const char* where = "kinds";
  Trace taken;
  try {
    const std::size_t kinds = sys.kinds();
    for (std::size_t i = 0; i < trace.size(); ++i) {
      const Kind k = trace[i];
      where = "enabled";
      if (k >= kinds || !sys.enabled(k)) {
        where = "describe";
        out.error = does_not_fit(i + 1, k, kinds, k < kinds ? std::string(sys.describe(k)) : "");
        return {};
      }
      where = "describe";
      on_step(k);
      const StepEnd end = stepper.take(k, &taken, out.violation);
      ++out.steps;
      if (end == StepEnd::broke && out.violation.kind == ViolationKind::crash) return {};
      where = "tuple";
      after_step();
      if (end == StepEnd::broke) return {};
    }
    where = "enabled/settled";
    bool any = false;
    for (Kind k = 0; k < kinds && !any; ++k) any = sys.enabled(k);
    if (!any && !sys.settled()) {
      out.violation = {ViolationKind::deadlock, trace, {}, std::string(kDeadlockDetail)};
      return {};
    }
    where = "world";
    return fingerprint(sys.world());
  } catch (...) {
    out.violation = {
        ViolationKind::crash, taken, {}, core::crash_detail(where, std::current_exception())};
    return {};
  }
}

/// Whether following `v.trace` from reset with `stepper` breaks the rule
/// `v` reports, at the same step: the check a counterexample of hash
/// compaction or of simulation passes before it is reported.
template <System S>
[[nodiscard]] bool reproduces(Stepper<S>& stepper, const Violation& v) {
  Replayed r;
  (void)walk(
      stepper, v.trace, r, [](Kind) {}, [] {});
  return r.error.empty() && r.violation.kind == v.kind && r.violation.invariant == v.invariant &&
         r.violation.trace == v.trace;
}

template <System S, class Before, class After>
Replayed replay_twice(S& sys, const Trace& trace, Before&& on_step, After&& after_step) {
  Replayed out;
  if (core::inside_merilo()) {
    out.error = core::kReentryError;
    return out;
  }
  core::EntryGuard guard;
  Stepper<S> stepper(sys);
  if (!stepper.error().empty()) {
    out.error = stepper.error();
    return out;
  }
  const Fingerprint first = walk(stepper, trace, out, on_step, after_step);
  if (!out.ok()) return out;
  Replayed again;
  const Fingerprint second = walk(
      stepper, trace, again, [](Kind) {}, [] {});
  if (!again.ok() || !(first == second)) {
    out.violation = {ViolationKind::nondeterminism,
                     trace,
                     {},
                     "following the same trace twice from reset reached different worlds"};
  }
  return out;
}

}  // namespace detail

template <System S>
Replayed replay(S& sys, const Trace& trace) {
  return detail::replay_twice(
      sys, trace, [](Kind) {}, [] {});
}

namespace detail {

/// Replays `trace` as `replay` does and fills `rows` with one row per step
/// taken (what it did, the tuple and `show()` after it). With `initial`, it
/// also receives the world before the first step (tuple and `show()`; no
/// description), when the trace has one.
template <System S>
Replayed replay_rows(S& sys, const Trace& trace, std::vector<Row>& rows, Row* initial = nullptr) {
  return replay_twice(
      sys, trace,
      [&](Kind k) {
        if (initial != nullptr && rows.empty()) {
          initial->tuple = std::string(sys.tuple());
          if constexpr (Shows<S>) initial->show = std::string(sys.show());
        }
        rows.push_back({std::string(sys.describe(k)), {}, {}});
      },
      [&] {
        rows.back().tuple = std::string(sys.tuple());
        if constexpr (Shows<S>) rows.back().show = std::string(sys.show());
      });
}

}  // namespace detail

template <System S>
std::string format(S& sys, const Trace& trace) {
  std::vector<detail::Row> rows;
  const Replayed r = detail::replay_rows(sys, trace, rows);
  return detail::format_rows(rows, r);
}

}  // namespace merilo::explore

#endif  // MERILO_EXPLORE_REPLAY_HPP
