// merilo/explore/violation.hpp — a broken rule and the trace to it.
//
// Every checker in merilo that takes steps — the explorer, `replay`, the
// fuzz runner — reports what broke as a `Violation`: which rule
// (`ViolationKind`), the trace from `reset()` to it, and what the adapter or
// merilo said. One line for people comes from `summary()`:
//
//   invariant "no one passes without paying" at step 1: 1 passed, 0 paid
//
// Example:
//
//   if (result.violation.found()) std::puts(result.violation.summary().c_str());
#ifndef MERILO_EXPLORE_VIOLATION_HPP
#define MERILO_EXPLORE_VIOLATION_HPP

#include <cstdint>      // std::uint8_t
#include <string>       // Violation::invariant, Violation::detail
#include <string_view>  // name

#include <merilo/explore/trace.hpp>

namespace merilo::explore {

/// What rule a violation broke. `none` (zero) means no violation.
enum class ViolationKind : std::uint8_t {
  none = 0,
  invariant,       ///< An invariant's predicate did not hold.
  deadlock,        ///< Nothing enabled and `settled()` false.
  apply_error,     ///< `apply()` returned `Status::error`.
  mode_change,     ///< `apply()` returned `Status::mode_change`.
  nondeterminism,  ///< The same path reached different worlds.
  crash,           ///< An exception escaped the adapter.
};

/// "invariant", "deadlock", "apply error", ...
[[nodiscard]] std::string_view name(ViolationKind kind) noexcept;

/// The detail of every `ViolationKind::deadlock`, from the explorer, the
/// fuzz runner and a replay alike.
inline constexpr std::string_view kDeadlockDetail =
    "no kind is enabled and the system is not settled";

/// The first rule broken, with the trace to it.
struct Violation {
  /// Which rule; `none` when nothing broke.
  ViolationKind kind = ViolationKind::none;
  /// The kinds from `reset()`. For `invariant`, the trace reaches the broken
  /// world; for `apply_error`, `mode_change` and `crash` its last kind is
  /// the step that failed (none for a crash in `reset()` or in the initial
  /// world's invariants); for `deadlock` it reaches the stuck world; for
  /// `nondeterminism` it is the path that did not replay.
  Trace trace;
  /// The broken invariant's name, as `invariants()` lists it (for
  /// `invariant`; empty otherwise).
  std::string invariant;
  /// What the adapter said, or what merilo saw.
  std::string detail;

  /// Whether a rule broke.
  [[nodiscard]] bool found() const noexcept { return kind != ViolationKind::none; }
  /// One line: `invariant "name" at step 3: detail`.
  [[nodiscard]] std::string summary() const;
};

}  // namespace merilo::explore

#endif  // MERILO_EXPLORE_VIOLATION_HPP
