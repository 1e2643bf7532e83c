// merilo/explore/invariant.hpp — invariants as named predicates.
//
// An invariant is a rule every reachable world must keep. A system lists
// its invariants once, in `invariants()`, each as a name and a predicate
// over the system; the explorer, `replay` and the fuzz runner evaluate them
// after every step, in the listed order, and report the first that does not
// hold under the name it is listed with. The name lives beside the check,
// so a violation cannot carry a name the system does not list.
//
// A predicate returns an `InvariantCheck`: it holds (`true`, or `InvariantCheck{}`), or it
// does not and says how (`InvariantCheck::fails("2 passed, 1 paid")`). It cannot
// return a step failure: step results are `Status` (system.hpp), a separate
// type.
//
// Example (examples/turnstile/system.hpp):
//
// clang-format off
//   [[nodiscard]] std::array<merilo::explore::Invariant<System>, 1> invariants() const {
//     return {{{"no one passes without paying", [](const System& s) {
//       return s.world_.passed <= s.world_.paid;  // or a merilo::explore::InvariantCheck
//     }}}};
//   }
// clang-format on
//
// NOTE: the names must outlive the system (string literals do): merilo
// copies them once, when a search or run starts, and reports them in
// violations and summary lines. A name must be non-empty and unique within
// the list, and every predicate non-null; otherwise the search or run is
// refused with a usage error naming the problem.
#ifndef MERILO_EXPLORE_INVARIANT_HPP
#define MERILO_EXPLORE_INVARIANT_HPP

#include <concepts>     // std::default_initializable, std::convertible_to
#include <string>       // InvariantCheck::detail
#include <string_view>  // Invariant::name
#include <type_traits>  // std::is_empty_v, std::invoke_result_t
#include <utility>      // std::move

namespace merilo::explore {

/// What an invariant's predicate says about the current world: it holds, or
/// it does not and `detail` says how.
class [[nodiscard]] InvariantCheck {
 public:
  /// Holds.
  InvariantCheck() = default;
  /// Holds when `holds` is true; fails with no detail otherwise. Implicit,
  /// so a predicate may `return paid >= passed;`.
  InvariantCheck(bool holds) : holds_(holds) {}  // NOLINT(google-explicit-constructor)

  /// Does not hold; `detail` says how ("2 passed, 1 paid").
  static InvariantCheck fails(std::string detail) {
    InvariantCheck v(false);
    v.detail_ = std::move(detail);
    return v;
  }

  /// Whether the invariant holds.
  [[nodiscard]] bool holds() const noexcept { return holds_; }
  /// How it does not hold ("" when it holds or nothing was said).
  [[nodiscard]] const std::string& detail() const noexcept { return detail_; }

 private:
  bool holds_ = true;
  std::string detail_;
};

/// One invariant of system `S`: its name, and a predicate over the system in
/// its current world.
template <class S>
struct Invariant {
  /// The predicate's type: whether the invariant holds in the world `s` is in.
  using Predicate = InvariantCheck (*)(const S& s);

  /// An invariant without a predicate (refused when a search starts).
  constexpr Invariant() = default;
  /// `name` checked by `holds`.
  constexpr Invariant(std::string_view name_, Predicate holds_) : name(name_), holds(holds_) {}
  /// `name` checked by a captureless lambda returning an `InvariantCheck` or a
  /// `bool`, e.g. `[](const System& s) { return s.paid() >= s.passed(); }`.
  template <class F>
  requires std::is_empty_v<F> && std::default_initializable<F> &&
      std::convertible_to<std::invoke_result_t<const F&, const S&>, InvariantCheck>
  constexpr Invariant(std::string_view name_, F)
      : name(name_), holds([](const S& s) -> InvariantCheck { return F{}(s); }) {}

  /// How violations and summary lines name it. Non-empty, unique, and alive
  /// as long as the system (a string literal).
  std::string_view name;
  /// The check. Never null.
  Predicate holds = nullptr;
};

}  // namespace merilo::explore

#endif  // MERILO_EXPLORE_INVARIANT_HPP
