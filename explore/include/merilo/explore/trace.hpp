// merilo/explore/trace.hpp — replaying a trace, and printing it for people.
//
// A `Trace` (the kinds from `reset()`) is how merilo hands you a
// counterexample. `format(sys, trace)` replays it and prints one aligned row
// per step — the step number, what the step did, every machine's state after
// it — then the rule it broke:
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
#ifndef MERILO_EXPLORE_TRACE_HPP
#define MERILO_EXPLORE_TRACE_HPP

#include <cstddef>
#include <exception>
#include <string>
#include <vector>

#include <merilo/explore/detail/fingerprint.hpp>
#include <merilo/core/crash.hpp>
#include <merilo/core/reentry.hpp>
#include <merilo/explore/explore.hpp>
#include <merilo/explore/system.hpp>

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
  [[nodiscard]] std::string describe() const;
};

/// Resets `sys`, follows `trace` checking invariants after every step, checks
/// the last world for a deadlock, then follows it once more to check that it
/// reaches the same world. Never throws.
template <System S>
[[nodiscard]] Replayed replay(S& sys, const Trace& trace);

/// Replays `trace` on `sys` and returns the aligned table shown in the
/// header overview, ending with the violation line (or "ok"). Never throws.
template <System S>
[[nodiscard]] std::string format(S& sys, const Trace& trace);

/// A test that replays `trace`, ready to paste into a test file: a GoogleTest
/// `TEST(suite, name)` that builds the system with `system_expr` and expects
/// `merilo::testing::expect_replay_ok` to pass.
[[nodiscard]] std::string replay_test(const std::string& suite, const std::string& name,
                                      const std::string& system_expr, const Trace& trace);

/// "{0, 1, 1}".
[[nodiscard]] std::string to_string(const Trace& trace);

namespace detail {

/// One row of a formatted trace.
struct Row {
  std::string description;
  std::string tuple;
};

/// The table text for `rows` and the outcome line for `replayed`.
[[nodiscard]] std::string format_rows(const std::vector<Row>& rows, const Replayed& replayed);

/// Follows `trace` once; calls `on_step(kind)` before each apply and
/// `after_step()` after it. Fills `out` and returns the final fingerprint.
template <System S, class Before, class After>
Fingerprint walk(S& sys, const Trace& trace, Replayed& out, Before&& on_step, After&& after_step) {
  const char* where = "reset";
  std::size_t reached = 0;  // steps begun, for the trace of a crash
  try {
    sys.reset();
    where = "check";
    Status initial = sys.check();
    if (!initial.ok()) {
      out.violation = {ViolationKind::invariant, {}, initial.invariant(), initial.detail()};
      return {};
    }
    const std::size_t kinds = sys.kinds();
    for (std::size_t i = 0; i < trace.size(); ++i) {
      const Kind k = trace[i];
      where = "enabled";
      if (k >= kinds) {
        out.error = "the trace does not fit: step " + std::to_string(i + 1) + " takes kind " +
                    std::to_string(k) + " but the system has " + std::to_string(kinds) + " kinds";
        return {};
      }
      if (!sys.enabled(k)) {
        out.error = "the trace does not fit: step " + std::to_string(i + 1) + " takes kind " +
                    std::to_string(k) + " (" + std::string(sys.describe(k)) +
                    "), which is not enabled there";
        return {};
      }
      where = "describe";
      reached = i + 1;
      on_step(k);
      where = "apply";
      Status s = sys.apply(k);
      ++out.steps;
      // The trace up to this step, built only when a violation needs it.
      auto prefix = [&] {
        return Trace(trace.begin(), trace.begin() + static_cast<std::ptrdiff_t>(i + 1));
      };
      if (!s.ok()) {
        const auto kind = s.code() == Status::Code::mode_change ? ViolationKind::mode_change
                                                                : ViolationKind::apply_error;
        out.violation = {kind, prefix(), {}, s.detail()};
        after_step();
        return {};
      }
      where = "tuple";
      after_step();
      where = "check";
      Status inv = sys.check();
      if (!inv.ok()) {
        out.violation = {ViolationKind::invariant, prefix(), inv.invariant(), inv.detail()};
        return {};
      }
    }
    where = "enabled/settled";
    bool any = false;
    for (Kind k = 0; k < kinds && !any; ++k) any = sys.enabled(k);
    if (!any && !sys.settled()) {
      out.violation = {
          ViolationKind::deadlock, trace, {}, "no kind is enabled and the system is not settled"};
      return {};
    }
    where = "world";
    return fingerprint(sys.world());
  } catch (...) {
    const Trace prefix(trace.begin(), trace.begin() + static_cast<std::ptrdiff_t>(reached));
    out.violation = {
        ViolationKind::crash, prefix, {}, core::crash_detail(where, std::current_exception())};
    return {};
  }
}

template <System S, class Before, class After>
Replayed replay_twice(S& sys, const Trace& trace, Before&& on_step, After&& after_step) {
  Replayed out;
  if (core::inside_merilo()) {
    out.error = core::kReentryError;
    return out;
  }
  core::EntryGuard guard;
  const Fingerprint first = walk(sys, trace, out, on_step, after_step);
  if (!out.ok()) return out;
  Replayed again;
  const Fingerprint second = walk(
      sys, trace, again, [](Kind) {}, [] {});
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

template <System S>
std::string format(S& sys, const Trace& trace) {
  std::vector<detail::Row> rows;
  const Replayed r = detail::replay_twice(
      sys, trace,
      [&](Kind k) {
        rows.push_back({std::string(sys.describe(k)), {}});
      },
      [&] { rows.back().tuple = std::string(sys.tuple()); });
  return detail::format_rows(rows, r);
}

}  // namespace merilo::explore

#endif  // MERILO_EXPLORE_TRACE_HPP
