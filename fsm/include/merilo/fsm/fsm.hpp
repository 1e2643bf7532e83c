// merilo/fsm/fsm.hpp — the part of merilo compiled into production code.
//
// A merilo machine is a small value type whose only way to change is
// `fire(event)`, which returns the next machine, the actions its holder must
// perform and an `Outcome`. This header gives every machine the same
// vocabulary for that:
//
//   * `Outcome` and `err()` — what a transition did, and how a holder turns a
//     refusal into an error it reports;
//   * `Counter` — a 64-bit counter with a limit that refuses instead of
//     wrapping;
//   * `ActionSet<A>` — a bit set of one machine's own action enum, performed
//     by the holder in declaration order;
//   * `Fired<M, A>` — what `fire` returns;
//   * the concept `Machine`, which turns the rules merilo's checkers rely on
//     into compile errors.
//
// A complete machine is examples/turnstile/turnstile.hpp; its holder does
// this with each event (`t` a `Turnstile`, `log` the holder's own):
//
//   auto [next, actions, outcome] = t.fire(Event::coin);
//   if (auto refusal = merilo::fsm::err(outcome)) log(refusal.what());
//   t = next;
//
// The rules for *worlds* (what the checkers fingerprint) are in world.hpp,
// and the totality check of a machine in total.hpp; production code needs
// neither.
//
// NOTE: everything here is constexpr, noexcept and allocation-free, and the
// header compiles with -fno-exceptions -fno-rtti. It includes only
// standard headers that are themselves free of I/O.
#ifndef MERILO_FSM_FSM_HPP
#define MERILO_FSM_FSM_HPP

#include <concepts>     // std::regular, std::same_as
#include <cstdint>      // fixed-width integers
#include <string_view>  // Refusal::what
#include <type_traits>  // std::is_enum_v

namespace merilo::fsm {

/// What one `fire` did.
///
/// The zero value, `none`, is a sentinel no machine returns: an outcome
/// nobody set deliberately reads as a refusal (see `err`), the same rule a
/// machine applies to its own zero state and zero event.
enum class Outcome : std::uint8_t {
  none = 0,  ///< Unset. Never returned by a correct machine; `err` refuses it.
  moved,     ///< Took effect: the machine changed or returned actions.
  ignored,   ///< Deliberately had no effect (e.g. a late timer); not an error.
  rejected,  ///< Refused a legal event that is wrong in this state.
  invalid,   ///< Refused something impossible: the zero state or zero event.
};

/// The name of `o`, for logs and reports ("moved", "invalid", ...).
[[nodiscard]] constexpr std::string_view name(Outcome o) noexcept {
  switch (o) {
    case Outcome::none:
      return "none";
    case Outcome::moved:
      return "moved";
    case Outcome::ignored:
      return "ignored";
    case Outcome::rejected:
      return "rejected";
    case Outcome::invalid:
      return "invalid";
  }
  return "out-of-range";
}

/// The error a holder reports when a machine refused an event.
///
/// Converts to `true` when there is something to report. A default-built
/// `Refusal` is "no error".
class [[nodiscard]] Refusal {
 public:
  /// No refusal.
  constexpr Refusal() noexcept = default;

  /// True when the event was refused.
  constexpr explicit operator bool() const noexcept { return refused_; }
  /// The outcome that was refused (`moved` when there is no refusal).
  [[nodiscard]] constexpr Outcome outcome() const noexcept { return outcome_; }
  /// A short description: "rejected", "invalid", "unset outcome",
  /// "out-of-range", or "" for no refusal.
  [[nodiscard]] constexpr std::string_view what() const noexcept {
    if (!refused_) return "";
    if (outcome_ == Outcome::none) return "unset outcome";
    return name(outcome_);
  }

 private:
  friend constexpr Refusal err(Outcome o) noexcept;
  constexpr Refusal(Outcome o, bool refused) noexcept : outcome_(o), refused_(refused) {}

  Outcome outcome_ = Outcome::moved;
  bool refused_ = false;
};

/// Maps `moved` and `ignored` to "no error" and every other outcome —
/// `rejected`, `invalid`, the unset `none` and any out-of-range value — to a
/// `Refusal`, so every holder treats outcomes the same way.
[[nodiscard]] constexpr Refusal err(Outcome o) noexcept {
  const bool ok = o == Outcome::moved || o == Outcome::ignored;
  return Refusal{o, !ok};
}

/// A 64-bit counter with a limit fixed when it is built. `inc` refuses at the
/// limit instead of wrapping, so a machine that counts retries or
/// generations cannot overflow silently.
///
/// A default-built counter has limit 0 and so refuses every `inc`.
class Counter {
 public:
  constexpr Counter() noexcept = default;
  /// A counter at 0 that may count up to and including `limit`.
  constexpr explicit Counter(std::uint64_t limit) noexcept : limit_(limit) {}

  /// A counter already at `value` (at most `limit`: a larger value is
  /// clamped to it), e.g. one restored from storage.
  [[nodiscard]] static constexpr Counter at(std::uint64_t value, std::uint64_t limit) noexcept {
    Counter c{limit};
    c.value_ = value < limit ? value : limit;
    return c;
  }

  /// The counter one higher, or `ok == false` when it is at its limit (the
  /// counter returned is then unchanged):
  ///   auto [retries, ok] = m.retries_.inc();
  ///   if (!ok) return give_up(m);
  [[nodiscard]] constexpr struct CounterStep inc() const noexcept;

  /// The same limit, value back at 0.
  [[nodiscard]] constexpr Counter reset() const noexcept { return Counter{limit_}; }
  /// The count so far.
  [[nodiscard]] constexpr std::uint64_t value() const noexcept { return value_; }
  /// The limit fixed at construction.
  [[nodiscard]] constexpr std::uint64_t limit() const noexcept { return limit_; }
  /// `inc` would refuse.
  [[nodiscard]] constexpr bool at_limit() const noexcept { return value_ >= limit_; }

  /// Equal value and limit.
  friend constexpr bool operator==(const Counter&, const Counter&) noexcept = default;

 private:
  std::uint64_t value_ = 0;
  std::uint64_t limit_ = 0;
};

/// What `Counter::inc` returns: the next counter, and whether it moved.
struct [[nodiscard]] CounterStep {
  /// The counter after the step (unchanged when it refused).
  Counter next;
  /// Whether the counter moved (false at the limit).
  bool ok;
};

constexpr CounterStep Counter::inc() const noexcept {
  if (value_ >= limit_) return CounterStep{*this, false};
  Counter next = *this;
  ++next.value_;
  return CounterStep{next, true};
}

/// A bit set of the actions one machine's holder must perform, typed by that
/// machine's own action enum `A`, so one machine's actions cannot be handed
/// to another's holder.
///
/// `A` is an enum whose enumerators are 0, 1, 2, ... (at most 64 of them);
/// `for_each` visits the set ones in that (declaration) order.
template <class A>
requires std::is_enum_v<A>
class ActionSet {
 public:
  constexpr ActionSet() noexcept = default;
  /// The set holding `a` alone.
  constexpr ActionSet(A a) noexcept : bits_(bit(a)) {}  // NOLINT: implicit on purpose

  /// No action is set.
  [[nodiscard]] constexpr bool empty() const noexcept { return bits_ == 0; }
  /// Action `a` is set.
  [[nodiscard]] constexpr bool has(A a) const noexcept { return (bits_ & bit(a)) != 0; }
  /// The set as a bit mask: bit `i` for enumerator `i`.
  [[nodiscard]] constexpr std::uint64_t bits() const noexcept { return bits_; }

  /// Calls `f(a)` for every action in the set, lowest enumerator first.
  template <class F>
  constexpr void for_each(F&& f) const {
    for (unsigned i = 0; i < 64; ++i) {
      if ((bits_ >> i) & 1U) f(static_cast<A>(i));
    }
  }

  /// Every action in `l` or `r`.
  friend constexpr ActionSet operator|(ActionSet l, ActionSet r) noexcept {
    ActionSet s;
    s.bits_ = l.bits_ | r.bits_;
    return s;
  }
  /// `r` with `l` added.
  friend constexpr ActionSet operator|(A l, ActionSet r) noexcept { return ActionSet{l} | r; }
  /// Adds every action of `o`.
  constexpr ActionSet& operator|=(ActionSet o) noexcept { return *this = *this | o; }
  /// The same actions.
  friend constexpr bool operator==(const ActionSet&, const ActionSet&) noexcept = default;

 private:
  static constexpr std::uint64_t bit(A a) noexcept {
    return std::uint64_t{1} << static_cast<std::uint64_t>(a);
  }
  std::uint64_t bits_ = 0;
};

/// The actions type of a machine that has none.
enum class NoAction : std::uint8_t {};

/// What `fire` returns: the next machine, the actions for the holder, and the
/// outcome. Marked [[nodiscard]]: a `fire` whose result is dropped is a bug,
/// and a build with -Werror refuses it.
///
/// Read it with a structured binding:
///   auto [next, actions, outcome] = m.fire(e);
template <class M, class A = NoAction>
struct [[nodiscard]] Fired {
  /// The machine after the event.
  M next;
  /// The actions its holder must perform.
  ActionSet<A> actions;
  /// How the machine took the event.
  Outcome outcome;
};

/// A machine: a regular (copyable, equality-comparable) value whose `fire`
/// takes an event `E` and returns `Fired<M, A>` for some action enum `A`.
template <class M, class E>
concept Machine = std::regular<M> && requires(const M& m, E e) {
  { m.fire(e).next } -> std::same_as<M&&>;
  { m.fire(e).outcome } -> std::same_as<Outcome&&>;
};

}  // namespace merilo::fsm

#endif  // MERILO_FSM_FSM_HPP
