// merilo/statem/violation.hpp — a broken rule, as every tester reports it.
//
// A `Violation` is what a spec's check returns when a rule failed: a `tag`
// naming the rule (shrinkers keep only candidates that fail with the same
// tag) and a `detail` for people. statem's `execute` and `finish`, the
// parallel tester's `postcondition` and `finish`, and `guarded` (a callback
// that threw) all speak it.
//
// Example:
//
//   merilo::statem::MaybeViolation check(int got, int want) {
//     if (got == want) return merilo::statem::ok();
//     return merilo::statem::fail("counter.value", "got " + std::to_string(got));
//   }
#ifndef MERILO_STATEM_VIOLATION_HPP
#define MERILO_STATEM_VIOLATION_HPP

#include <optional>     // MaybeViolation
#include <string>       // Violation's fields
#include <string_view>  // kCrashTag
#include <utility>      // std::move

namespace merilo::statem {

/// A broken rule: a `tag` naming which rule (shrinking keeps only candidates
/// that fail with the same tag, so two bugs need two tags) and a free-form
/// `detail` for people.
struct Violation {
  std::string tag;     ///< Which rule; compared by the shrinker.
  std::string detail;  ///< What happened, for people.
  /// The same tag and detail.
  friend bool operator==(const Violation&, const Violation&) = default;
};

/// The tag of an exception that escaped a user callback.
inline constexpr std::string_view kCrashTag = "statem.crash";

/// What `execute` and `finish` return: `std::nullopt` (spelled `ok()`) or
/// the violation found.
using MaybeViolation = std::optional<Violation>;

/// The passing answer.
[[nodiscard]] inline MaybeViolation ok() { return std::nullopt; }
/// A failing answer with `tag` and `detail`.
[[nodiscard]] inline MaybeViolation fail(std::string tag, std::string detail) {
  return Violation{std::move(tag), std::move(detail)};
}

}  // namespace merilo::statem

#endif  // MERILO_STATEM_VIOLATION_HPP
