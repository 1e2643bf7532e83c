// watchdog.hpp — a watchdog that raises an alarm when it is not kicked in
// time, and drops a stale timeout by itself.
//
// Arming starts a timer; each kick replaces it with a fresh one; if the
// timer expires while armed, the alarm goes off. The machine asks for timers
// with actions and its holder owns the real ones. The catch: a replaced or
// cancelled timer can still deliver its expiry late, when cancelling lost
// the race with it. So every arm and kick takes the next *generation* (an
// fsm::Counter, refused at its limit rather than wrapping), the holder
// starts each timer with the generation it was asked for, and the timeout
// event carries it back. `fire` itself compares it with the current
// generation and ignores a stale timeout — no holder bookkeeping needed.
//
//   idle ──arm──► armed ──timeout(current gen)──► expired ──arm──► armed
//                 │ ▲ kick: new gen, new timer
//                 │ └──┘   timeout(older gen): ignored
//                 └──disarm──► idle
//
// `Bug::narrow_generation` seeds a bug that only shows deep: the comparison
// looks at the low two bits of the generation only (as if it were stored in
// a 2-bit field), so a timer four generations old is taken for the current
// one.
#ifndef MERILO_EXAMPLES_WATCHDOG_WATCHDOG_HPP
#define MERILO_EXAMPLES_WATCHDOG_WATCHDOG_HPP

#include <array>
#include <cstdint>
#include <string_view>

#include <merilo/fsm/fsm.hpp>
#include <merilo/fsm/world.hpp>

namespace watchdog {

namespace fsm = merilo::fsm;

/// Seeded bugs, switched at compile time.
enum class Bug : std::uint8_t { none, narrow_generation };

enum class State : std::uint8_t { none, idle, armed, expired };
/// What happens to a watchdog. `none` is the zero sentinel.
enum class Op : std::uint8_t { none, arm, kick, timeout, disarm };
/// What the holder must do: start a timer for the current generation,
/// cancel the running one, raise the alarm.
enum class Action : std::uint8_t { cancel_timer, start_timer, alarm };

/// An event; `generation` is the timer's, for `timeout`.
struct Event {
  Op op = Op::none;
  std::uint64_t generation = 0;
};

[[nodiscard]] constexpr std::string_view name(State s) noexcept {
  switch (s) {
    case State::none:
      return "none";
    case State::idle:
      return "idle";
    case State::armed:
      return "armed";
    case State::expired:
      return "expired";
  }
  return "?";
}

[[nodiscard]] constexpr std::string_view name(Op o) noexcept {
  switch (o) {
    case Op::none:
      return "none";
    case Op::arm:
      return "arm";
    case Op::kick:
      return "kick";
    case Op::timeout:
      return "timeout";
    case Op::disarm:
      return "disarm";
  }
  return "?";
}

/// The watchdog. A value type: `fire` returns the next one.
template <Bug bug = Bug::none>
class Watchdog {
 public:
  using Fired = fsm::Fired<Watchdog, Action>;

  /// The zero machine, which refuses everything.
  constexpr Watchdog() noexcept = default;
  /// A new idle watchdog that may start `generations` timers in all.
  [[nodiscard]] static constexpr Watchdog make(std::uint64_t generations) noexcept {
    return in(State::idle, 0, generations);
  }
  /// A watchdog in `s` at generation `gen`, for tables.
  [[nodiscard]] static constexpr Watchdog in(State s, std::uint64_t gen,
                                             std::uint64_t generations) noexcept {
    Watchdog w;
    w.state_ = s;
    w.gen_ = fsm::Counter{generations};
    for (std::uint64_t i = 0; i < gen; ++i) w.gen_ = w.gen_.inc().next;
    return w;
  }

  [[nodiscard]] constexpr State state() const noexcept { return state_; }
  /// The generation of the newest timer (0 before the first).
  [[nodiscard]] constexpr std::uint64_t generation() const noexcept { return gen_.value(); }
  /// Whether another timer may start (arm or kick).
  [[nodiscard]] constexpr bool has_generations() const noexcept { return !gen_.at_limit(); }

  [[nodiscard]] constexpr Fired fire(Event e) const noexcept {
    using fsm::Outcome;
    switch (state_) {
      case State::idle:
        switch (e.op) {
          case Op::arm:
            return start(Action::start_timer);
          case Op::timeout:  // a late expiry of a cancelled timer
          case Op::disarm:
            return {*this, {}, Outcome::ignored};
          case Op::kick:
            return {*this, {}, Outcome::rejected};
          case Op::none:
            break;
        }
        break;
      case State::armed:
        switch (e.op) {
          case Op::kick:
            return start(Action::cancel_timer | fsm::ActionSet<Action>{Action::start_timer});
          case Op::timeout:
            if (!current(e.generation)) return {*this, {}, Outcome::ignored};  // stale
            return {with(State::expired), Action::alarm, Outcome::moved};
          case Op::disarm:
            return {with(State::idle), Action::cancel_timer, Outcome::moved};
          case Op::arm:
            return {*this, {}, Outcome::rejected};
          case Op::none:
            break;
        }
        break;
      case State::expired:
        switch (e.op) {
          case Op::arm:
            return start(Action::start_timer);
          case Op::disarm:
            return {with(State::idle), {}, Outcome::moved};
          case Op::timeout:
            return {*this, {}, Outcome::ignored};
          case Op::kick:
            return {*this, {}, Outcome::rejected};
          case Op::none:
            break;
        }
        break;
      case State::none:
        break;
    }
    return {*this, {}, Outcome::invalid};
  }

  friend constexpr bool operator==(const Watchdog&, const Watchdog&) noexcept = default;

 private:
  [[nodiscard]] constexpr bool current(std::uint64_t g) const noexcept {
    if constexpr (bug == Bug::narrow_generation) return (g & 3U) == (gen_.value() & 3U);
    return g == gen_.value();
  }

  [[nodiscard]] constexpr Watchdog with(State s) const noexcept {
    Watchdog next = *this;
    next.state_ = s;
    return next;
  }

  // Arms with the next generation; refused when none is left.
  [[nodiscard]] constexpr Fired start(fsm::ActionSet<Action> actions) const noexcept {
    auto [gen, ok] = gen_.inc();
    if (!ok) return {*this, {}, fsm::Outcome::rejected};
    Watchdog next = with(State::armed);
    next.gen_ = gen;
    return {next, actions, fsm::Outcome::moved};
  }

  fsm::Counter gen_{};
  State state_ = State::none;
  std::array<std::uint8_t, 7> pad_{};  // explicit, zeroed: the bytes are the value
};

static_assert(fsm::Machine<Watchdog<>, Event>);
static_assert(fsm::ByteHashable<Watchdog<>>);

}  // namespace watchdog

#endif  // MERILO_EXAMPLES_WATCHDOG_WATCHDOG_HPP
