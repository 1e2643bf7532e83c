// merilo/explore/step.hpp — taking one step, the one way every checker does.
//
// The explorer, `replay` and the fuzz runner all take steps the same way:
// apply a kind, turn a failed `Status` into a violation, evaluate every
// invariant on the world reached, and catch whatever escapes the adapter as
// a crash. `Stepper` is that routine, so the three report the same
// violation, with the same words and the same trace, for the same step.
//
// Example (a loop that follows a trace, as `replay` does):
//
//   merilo::explore::Stepper<System> stepper(sys);
//   if (!stepper.error().empty()) return stepper.error();  // a bad invariant list
//   merilo::explore::Violation v;
//   merilo::explore::Trace taken;
//   if (stepper.start(v) == merilo::explore::StepEnd::broke) return v.summary();
//   for (merilo::explore::Kind k : trace) {
//     if (stepper.take(k, &taken, v) == merilo::explore::StepEnd::broke) return v.summary();
//   }
//
// The trace. When the caller passes a `Trace*`, `take` appends the kind
// *before* applying it, so the trace of any violation — a failed or
// throwing `apply` included — ends with the step that broke the rule.
//
// NOTE: a `Stepper` keeps a pointer to the system and a copy of its
// invariant list, read once by the constructor. It does not check that a
// kind is enabled (each caller decides what a disabled kind means: not part
// of the search, a trace that no longer fits, or not a choice) and never
// throws, but `std::bad_alloc`.
#ifndef MERILO_EXPLORE_STEP_HPP
#define MERILO_EXPLORE_STEP_HPP

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include <merilo/core/crash.hpp>
#include <merilo/explore/invariant.hpp>
#include <merilo/explore/system.hpp>
#include <merilo/explore/trace.hpp>
#include <merilo/explore/violation.hpp>

namespace merilo::explore {

/// How one step (or the start) ended.
enum class StepEnd : std::uint8_t {
  checked,  ///< Applied; every invariant holds in the world reached.
  seen,     ///< Applied; the caller had checked this world before, so its
            ///< invariants were not evaluated again.
  broke,    ///< A rule broke; the `Violation` passed in says which.
};

namespace detail {
/// The usage error for an invariant list — an empty name, a name listed
/// twice, a null predicate — or "" when it is fine. `null[i]` says whether
/// the predicate of `names[i]` is null.
[[nodiscard]] std::string invariant_list_error(const std::vector<std::string>& names,
                                               const std::vector<bool>& null);
}  // namespace detail

/// Takes steps on one system: applies, maps the status, checks the
/// invariants, catches crashes, and records the trace.
template <System S>
class Stepper {
  // What the predicates read: S, or the base class whose invariants S keeps.
  using Subject = invariant_subject_t<S>;

 public:
  /// A stepper for `sys` (kept by pointer). Reads `sys.invariants()` once;
  /// a bad list, or an exception from `invariants()`, is kept in `error()`.
  explicit Stepper(S& sys) : sys_(&sys) {
    detail::check_system<S>();
    try {
      std::vector<bool> null;
      for (auto&& item : sys.invariants()) {
        const Invariant<Subject> inv = item;
        names_.emplace_back(inv.name);
        null.push_back(inv.holds == nullptr);
        holds_.push_back(inv.holds);
      }
      error_ = detail::invariant_list_error(names_, null);
    } catch (...) {
      error_ = "merilo: " + core::crash_detail("invariants()", std::current_exception());
    }
  }

  /// A usage error in the system's invariant list, or "". Do not take steps
  /// when it is set.
  [[nodiscard]] const std::string& error() const noexcept { return error_; }
  /// The invariants' names, in the order `invariants()` lists them.
  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return names_; }
  /// The system stepped.
  [[nodiscard]] S& system() const noexcept { return *sys_; }

  /// Resets the system and checks the invariants on the initial world.
  /// On `broke`, `out` holds the violation (its trace empty).
  StepEnd start(Violation& out) {
    const char* where = "reset";
    try {
      sys_->reset();
      where = nullptr;
      return check(nullptr, out);
    } catch (...) {
      out = Violation{ViolationKind::crash,
                      {},
                      {},
                      core::crash_detail(where != nullptr ? where : "the invariants",
                                         std::current_exception())};
      return StepEnd::broke;
    }
  }

  /// Evaluates every invariant, in order, on the current world. On `broke`,
  /// `out` names the first that does not hold (or the crash of its
  /// predicate), with `*trace` as its trace (empty when `trace` is null).
  StepEnd check(const Trace* trace, Violation& out) {
    std::size_t i = 0;
    try {
      for (; i < holds_.size(); ++i) {
        InvariantCheck v = holds_[i](*sys_);
        if (!v.holds()) {
          out =
              Violation{ViolationKind::invariant, copy(trace), names_[i], std::string(v.detail())};
          return StepEnd::broke;
        }
      }
      return StepEnd::checked;
    } catch (...) {
      const std::string where = "the predicate of invariant \"" + names_[i] + "\"";
      out = Violation{ViolationKind::crash,
                      copy(trace),
                      {},
                      core::crash_detail(where.c_str(), std::current_exception())};
      return StepEnd::broke;
    }
  }

  /// Takes kind `k`: appends it to `*trace` (when not null), applies it,
  /// maps a failed `Status` to an `apply_error` or `mode_change` violation,
  /// then — unless `fresh()` returns false, meaning the caller has already
  /// checked the world reached — evaluates the invariants. Exceptions from
  /// `apply`, `fresh` or a predicate become a `crash` violation. On `broke`,
  /// `out` holds the violation, with `*trace` as its trace.
  template <class Fresh>
  StepEnd take(Kind k, Trace* trace, Violation& out, Fresh&& fresh) {
    if (trace != nullptr) trace->push_back(k);
    const char* where = "apply";
    try {
      Status s = sys_->apply(k);
      if (!s.ok()) {
        const auto kind = s.code() == Status::Code::mode_change ? ViolationKind::mode_change
                                                                : ViolationKind::apply_error;
        out = Violation{kind, copy(trace), {}, std::string(s.detail())};
        return StepEnd::broke;
      }
      where = "world";
      if (!fresh()) return StepEnd::seen;
    } catch (...) {
      out = Violation{ViolationKind::crash,
                      copy(trace),
                      {},
                      core::crash_detail(where, std::current_exception())};
      return StepEnd::broke;
    }
    return check(trace, out);
  }

  /// `take` that always checks the invariants.
  StepEnd take(Kind k, Trace* trace, Violation& out) {
    return take(k, trace, out, [] { return true; });
  }

 private:
  static Trace copy(const Trace* trace) { return trace != nullptr ? *trace : Trace{}; }

  S* sys_;
  std::vector<std::string> names_;
  std::vector<typename Invariant<Subject>::Predicate> holds_;
  std::string error_;
};

}  // namespace merilo::explore

#endif  // MERILO_EXPLORE_STEP_HPP
