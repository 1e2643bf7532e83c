// merilo/explore/sometimes.hpp — reachability ("sometimes") properties.
//
// An invariant that no reachable world ever puts to the test passes
// vacuously: "no RM commits while another aborts" holds trivially in a
// protocol where no RM can commit at all. A *sometimes* property is the
// guard against that: a named condition that at least one reachable world
// must satisfy. A system lists them, like its invariants, in an optional
// `sometimes()` member; the explorer evaluates each on every new world until
// one satisfies it, and records the depth of the first (so shallowest)
// world that does.
//
//   * A complete search that never met a property fails: `ExploreResult::ok()`
//     is false, `unreached()` names it, and the summary line ends with
//     `unreached=[name]`.
//   * A search that stopped early (the bound, a violation) says "not reached
//     within the bound" and claims nothing: a deeper world might reach it.
//   * `ExploreOptions::sometimes_traces` also stores a shortest trace to
//     each property reached (`SometimesReport::trace`).
//
// Example (examples/tla_twophase/system.hpp):
//
// clang-format off
//   [[nodiscard]] std::array<merilo::explore::Sometimes<System>, 1> sometimes() const {
//     return {{{"some RM commits", [](const System& s) { return s.count(Rm::committed) > 0; }}}};
//   }
// clang-format on
//
// NOTE: as with invariants, the names must outlive the system (string
// literals do), be non-empty and unique, and every predicate non-null; at
// most `kMaxSometimes` properties. Otherwise the search is refused with a
// usage error naming the problem. A predicate is evaluated on new worlds
// only and must depend on `world()` only.
#ifndef MERILO_EXPLORE_SOMETIMES_HPP
#define MERILO_EXPLORE_SOMETIMES_HPP

#include <concepts>     // std::default_initializable, std::convertible_to
#include <cstddef>      // std::size_t
#include <string_view>  // Sometimes::name
#include <type_traits>  // std::is_empty_v, std::invoke_result_t

namespace merilo::explore {

/// The most sometimes properties a system may list: the explorer keeps the
/// ones a new world satisfies as a 64-bit set.
inline constexpr std::size_t kMaxSometimes = 64;

/// One sometimes property of system `S`: its name, and a predicate over the
/// system in its current world that says whether this world satisfies it.
template <class S>
struct Sometimes {
  /// The predicate's type: whether the world `s` is in satisfies the property.
  using Predicate = bool (*)(const S& s);

  /// A property without a predicate (refused when a search starts).
  constexpr Sometimes() = default;
  /// `name` satisfied where `holds` is true.
  constexpr Sometimes(std::string_view name_, Predicate holds_) : name(name_), holds(holds_) {}
  /// `name` satisfied where a captureless lambda returns true, e.g.
  /// `[](const System& s) { return s.committed() > 0; }`.
  template <class F>
  requires std::is_empty_v<F> && std::default_initializable<F> &&
      std::convertible_to < std::invoke_result_t<const F&, const S&>,
  bool > constexpr Sometimes(std::string_view name_, F)
      : name(name_),
  holds([](const S& s) -> bool { return F{}(s); }) {}

  /// How the summary line and results name it. Non-empty, unique, and
  /// alive as long as the system (a string literal).
  std::string_view name;
  /// The condition. Never null.
  Predicate holds = nullptr;
};

}  // namespace merilo::explore

#endif  // MERILO_EXPLORE_SOMETIMES_HPP
