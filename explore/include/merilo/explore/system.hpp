// merilo/explore/system.hpp — the adapter between merilo and your machines.
//
// A *system* puts one or more machines in their environment (a network, a
// timer, a user) and exposes every possible next step as a numbered *kind*.
// The explorer, the fuzzer and `replay` only ever talk to a system through
// the operations of the `System` concept below, so the same adapter serves
// all of them.
//
// Example (the turnstile, in full in examples/turnstile):
//
//   class TurnstileSystem {
//    public:
//     void reset() { world_ = World{Turnstile::make(), 0}; }
//     std::size_t kinds() const { return 2; }                  // coin, push
//     bool enabled(merilo::explore::Kind) const { return true; }
//     merilo::explore::Status apply(merilo::explore::Kind k);  // fires the event
//     const World& world() const { return world_; }
//     merilo::explore::Status check() const;                   // invariants
//     std::string tuple() const;                               // "turnstile:locked"
//     bool settled() const { return false; }
//     std::string describe(merilo::explore::Kind k) const;     // "coin"
//     std::vector<std::string> invariants() const;             // names check() checks
//   };
//
// NOTE: a system must be deterministic: from `reset()`, the same kinds must
// always reach the same world. The explorer checks this and reports a
// `nondeterminism` violation when a clock, a random number or any other
// state outside the world leaks in.
#ifndef MERILO_EXPLORE_SYSTEM_HPP
#define MERILO_EXPLORE_SYSTEM_HPP

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <ranges>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <merilo/fsm/fsm.hpp>

namespace merilo::explore {

/// A step kind: an index in [0, kinds()).
using Kind = std::size_t;

/// The kinds taken from the initial world, in order. A trace is all it takes
/// to reproduce a world: `reset()`, then `apply` each kind.
using Trace = std::vector<Kind>;

/// What an adapter's `apply` or `check` reports: ok, or what broke.
///
/// `apply` returns `Status{}` when the step went through, `Status::error` when
/// the machines refused it or something else went wrong, and
/// `Status::mode_change` when the system's mode changed in a way the adapter
/// does not allow. `check` returns `Status{}` or `Status::broken` naming the
/// invariant that does not hold.
class [[nodiscard]] Status {
 public:
  /// What kind of status this is.
  enum class Code : std::uint8_t { ok, error, mode_change, broken };

  /// Ok.
  Status() = default;

  /// A step that failed: a refused event, an impossible request, ...
  static Status error(std::string detail) { return Status{Code::error, {}, std::move(detail)}; }
  /// An undeclared change of the system's mode.
  static Status mode_change(std::string detail) {
    return Status{Code::mode_change, {}, std::move(detail)};
  }
  /// An invariant, by the name `invariants()` lists it under, that does not
  /// hold; `detail` says how.
  static Status broken(std::string invariant, std::string detail = {}) {
    return Status{Code::broken, std::move(invariant), std::move(detail)};
  }

  [[nodiscard]] bool ok() const noexcept { return code_ == Code::ok; }
  [[nodiscard]] Code code() const noexcept { return code_; }
  /// The invariant's name, for `broken`.
  [[nodiscard]] const std::string& invariant() const noexcept { return invariant_; }
  [[nodiscard]] const std::string& detail() const noexcept { return detail_; }

 private:
  Status(Code code, std::string invariant, std::string detail)
      : code_(code), invariant_(std::move(invariant)), detail_(std::move(detail)) {}

  Code code_ = Code::ok;
  std::string invariant_;
  std::string detail_;
};

/// The world type a system `S` returns from `world()`.
template <class S>
using world_t = std::remove_cvref_t<decltype(std::declval<const S&>().world())>;

/// The adapter concept. Every operation but `reset` and `apply` is const and
/// reads the current world.
///
/// | operation      | contract                                                  |
/// | -------------- | --------------------------------------------------------- |
/// | `reset()`      | return to the initial world                               |
/// | `kinds()`      | how many step kinds there are (fixed for the system)      |
/// | `enabled(k)`   | whether kind `k` can be taken in the current world        |
/// | `apply(k)`     | take kind `k` (only called when enabled); `Status{}` or a |
/// |                | failure, which is a violation                             |
/// | `world()`      | the current world, an `fsm::World` value                  |
/// | `check()`      | the invariants on the current world                       |
/// | `tuple()`      | every machine's control state, e.g. "n0:idle n1:wait"     |
/// | `settled()`    | stopped by design: nothing enabled here is no deadlock    |
/// | `describe(k)`  | one readable line for kind `k`, taken from this world     |
/// | `invariants()` | the names of the invariants `check` checks                |
template <class S>
concept System = requires(S& s, const S& cs, Kind k) {
  s.reset();
  { cs.kinds() } -> std::convertible_to<std::size_t>;
  { cs.enabled(k) } -> std::convertible_to<bool>;
  { s.apply(k) } -> std::same_as<Status>;
  cs.world();
  requires fsm::World<world_t<S>>;
  { cs.check() } -> std::same_as<Status>;
  { cs.tuple() } -> std::convertible_to<std::string>;
  { cs.settled() } -> std::convertible_to<bool>;
  { cs.describe(k) } -> std::convertible_to<std::string>;
  { cs.invariants() } -> std::ranges::input_range;
  requires std::convertible_to<std::ranges::range_reference_t<decltype(cs.invariants())>,
                               std::string_view>;
};

/// A system that can be put straight into a world it returned earlier, so the
/// explorer need not replay the path from `reset()` to get there.
///
/// NOTE: after `restore(w)`, `world()` must equal `w` and every operation
/// must behave as it did when `w` was current. The explorer checks the first
/// and, on a sample of worlds, replays from `reset()` to check the rest.
template <class S>
concept Restorable = System<S> && requires(S& s, const world_t<S>& w) {
  s.restore(w);
};

/// The invariant names of `sys`, as strings.
template <System S>
[[nodiscard]] std::vector<std::string> invariant_names(const S& sys) {
  std::vector<std::string> names;
  for (auto&& n : sys.invariants()) names.emplace_back(std::string_view(n));
  return names;
}

}  // namespace merilo::explore

#endif  // MERILO_EXPLORE_SYSTEM_HPP
