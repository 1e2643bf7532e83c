// merilo/explore/system.hpp — the adapter between merilo and your machines.
//
// A *system* puts one or more machines in their environment (a network, a
// timer, a user) and exposes every possible next step as a numbered *kind*.
// The explorer, the fuzzer and `replay` only ever talk to a system through
// the operations of the `System` concept below, so the same adapter serves
// all of them. Taking a step answers with a `Status` (it went through, or
// it failed); the rules every world must keep are the system's
// `invariants()`, named predicates listed once (invariant.hpp).
//
// The shape of an adapter (the turnstile, in full in
// examples/turnstile/system.hpp):
//
// clang-format off
//   class System {
//    public:
//     void reset();                                       // the initial world
//     std::size_t kinds() const;                          // 2: coin, push
//     bool enabled(merilo::explore::Kind k) const;        // can k be taken now?
//     merilo::explore::Status apply(merilo::explore::Kind k);  // take it
//     const World& world() const;                         // the current world
//     std::array<merilo::explore::Invariant<System>, 1> invariants() const;
//     std::string tuple() const;                          // "turnstile:locked"
//     bool settled() const;                               // stopped by design?
//     std::string describe(merilo::explore::Kind k) const;  // "coin"
//   };
// clang-format on
//
// Optional members widen what a search can do: `restore`, `tuple_key`,
// `show` (below), `canonical` (symmetry reduction) and `sometimes()`
// (reachability properties, sometimes.hpp).
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

#include <merilo/explore/invariant.hpp>
#include <merilo/explore/sometimes.hpp>
#include <merilo/fsm/world.hpp>

namespace merilo::explore {

/// A step kind: an index in [0, kinds()).
using Kind = std::size_t;

/// What an adapter's `apply` reports: the step went through, or how it
/// failed. A failed step is a violation.
///
/// Broken invariants are not a `Status`: they are the system's
/// `invariants()` (invariant.hpp).
class [[nodiscard]] Status {
 public:
  /// What kind of status this is.
  enum class Code : std::uint8_t {
    ok,           ///< The step went through.
    error,        ///< The machines refused it, or something else went wrong.
    mode_change,  ///< The system's mode changed in a way the adapter forbids.
  };

  /// Ok.
  Status() = default;

  /// A step that failed: a refused event, an impossible request, ...
  static Status error(std::string detail) { return Status{Code::error, std::move(detail)}; }
  /// An undeclared change of the system's mode.
  static Status mode_change(std::string detail) {
    return Status{Code::mode_change, std::move(detail)};
  }

  /// Whether the step went through.
  [[nodiscard]] bool ok() const noexcept { return code_ == Code::ok; }
  /// Which status this is.
  [[nodiscard]] Code code() const noexcept { return code_; }
  /// What the adapter said about a failure ("" for ok).
  [[nodiscard]] const std::string& detail() const noexcept { return detail_; }

 private:
  Status(Code code, std::string detail) : code_(code), detail_(std::move(detail)) {}

  Code code_ = Code::ok;
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
/// | `invariants()` | the invariants, each an `Invariant<S>`: name + predicate  |
/// | `tuple()`      | every machine's control state, e.g. "n0:idle n1:wait"     |
/// | `settled()`    | stopped by design: nothing enabled here is no deadlock    |
/// | `describe(k)`  | one readable line for kind `k`, taken from this world     |
///
/// NOTE: the concept checks the operations' shapes. Two rules are checked
/// where a search, replay or fuzz run is instantiated instead, by a
/// `static_assert` that says what is wrong: the world is an `fsm::World`,
/// and `invariants()` lists `Invariant<S>` values.
template <class S>
concept System = requires(S& s, const S& cs, Kind k) {
  s.reset();
  { cs.kinds() } -> std::convertible_to<std::size_t>;
  { cs.enabled(k) } -> std::convertible_to<bool>;
  { s.apply(k) } -> std::same_as<Status>;
  cs.world();
  { cs.invariants() } -> std::ranges::input_range;
  { cs.tuple() } -> std::convertible_to<std::string>;
  { cs.settled() } -> std::convertible_to<bool>;
  { cs.describe(k) } -> std::convertible_to<std::string>;
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

/// A system that names its tuple with one integer, so the explorer builds
/// the `tuple()` string only for tuples it has not met (a string per new
/// world otherwise, often the biggest cost of a search; docs/explore.md,
/// "Tuples").
///
/// NOTE: equal keys must mean equal tuples (different keys may still share
/// a tuple). The explorer checks this on the worlds it samples for
/// determinism and stops with a usage error naming both tuples when not.
template <class S>
concept TupleKeyed = System<S> && requires(const S& cs) {
  { cs.tuple_key() } -> std::convertible_to<std::uint64_t>;
};

/// A system that can show the data of its current world (the messages in
/// flight, a coordinator's vote set, ...) in one line, beside the tuple:
/// `format` prints it in every row of a trace, and the gtest glue in
/// failures.
template <class S>
concept Shows = System<S> && requires(const S& cs) {
  { cs.show() } -> std::convertible_to<std::string>;
};

/// A system whose worlds come in interchangeable groups (identical replicas
/// whose names do not matter), so that it can map every world to one
/// representative of its group: `canonical(w)` returns that world, e.g. the
/// world with the replicas' slots sorted. The explorer then stores one world
/// per group (it fingerprints `canonical(world())`), while every trace it
/// reports stays a real path of `apply` steps from `reset()`.
///
/// NOTE: `canonical` must be a symmetry of the system: `canonical(w)` must
/// be a world that behaves like `w` up to renaming — the same invariants
/// hold, as many kinds are enabled, `settled()`, `tuple()` and every
/// sometimes property agree, one step from each reaches the same canonical
/// forms — and `canonical(canonical(w))` must equal `canonical(w)`. The
/// explorer checks this on the worlds it samples
/// (docs/explore.md, "Symmetry") and stops with a usage error naming the
/// first rule broken and a trace to the world that broke it.
template <class S>
concept Symmetric = System<S> && requires(const S& cs, const world_t<S>& w) {
  { cs.canonical(w) } -> std::convertible_to<world_t<S>>;
};

/// A system that lists reachability properties in `sometimes()`: a range of
/// `Sometimes<S>` (or of `Sometimes<B>` for a base `B` of `S`).
template <class S>
concept HasSometimes = System<S> && requires(const S& cs) {
  { cs.sometimes() } -> std::ranges::input_range;
};

namespace detail {

/// `Sometimes<B>`'s `B`; no `type` for anything else.
template <class T>
struct sometimes_subject {};
template <class B>
struct sometimes_subject<Sometimes<B>> {
  using type = B;
};

/// `Invariant<B>`'s `B`; no `type` for anything else.
template <class T>
struct invariant_subject {};
template <class B>
struct invariant_subject<Invariant<B>> {
  using type = B;
};

/// What `S::invariants()` lists, without cv and reference.
template <class S>
using listed_t = std::remove_cvref_t<
    std::ranges::range_reference_t<decltype(std::declval<const S&>().invariants())>>;

}  // namespace detail

/// A system whose `invariants()` lists `Invariant<B>` values for `S` itself
/// or a base class of it (so a test fixture derived from an adapter keeps
/// the adapter's invariants).
template <class S>
concept ListsInvariants = System<S> && requires {
  typename detail::invariant_subject<detail::listed_t<S>>::type;
} && std::derived_from<S, typename detail::invariant_subject<detail::listed_t<S>>::type>;

/// The class an invariant predicate of `S` reads: `S` or a base of it.
template <ListsInvariants S>
using invariant_subject_t = typename detail::invariant_subject<detail::listed_t<S>>::type;

namespace detail {

/// Compile-time checks every entry point (explore, replay, format, fuzz)
/// makes, each with a message that says what to change.
template <System S>
constexpr void check_system() {
  static_assert(fsm::World<world_t<S>>,
                "merilo: the system's world cannot be fingerprinted by its bytes: it has padding "
                "bytes between or after its fields, or a float/double (whose equal values can "
                "differ in bytes). Reorder the fields, make the padding an explicit zeroed "
                "`std::uint8_t pad_[N]` field, store floats as integers, or give the world a "
                "`template <class Sink> void feed(Sink&) const` member (see fsm::World)");
  if constexpr (HasSometimes<S>) {
    using Listed = std::remove_cvref_t<
        std::ranges::range_reference_t<decltype(std::declval<const S&>().sometimes())>>;
    static_assert(
        requires { typename sometimes_subject<Listed>::type; },
        "merilo: sometimes() must list merilo::explore::Sometimes<System> values (a "
        "name and a predicate each; see merilo/explore/sometimes.hpp)");
    if constexpr (requires { typename sometimes_subject<Listed>::type; }) {
      static_assert(std::derived_from<S, typename sometimes_subject<Listed>::type>,
                    "merilo: sometimes() lists Sometimes<B> for a B that is neither the system "
                    "nor a base class of it");
    }
  }
  static_assert(ListsInvariants<S>,
                "merilo: invariants() must list merilo::explore::Invariant<System> values (a name "
                "and a predicate each); a list of names with a separate check() is the old "
                "interface (see \"Migrating\" in docs/explore.md)");
}

}  // namespace detail

}  // namespace merilo::explore

#endif  // MERILO_EXPLORE_SYSTEM_HPP
