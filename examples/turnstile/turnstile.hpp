// turnstile.hpp — the smallest merilo machine: a coin-operated turnstile.
//
// One mode and no actions: a coin unlocks it, a push lets one person through
// and locks it again. Pushing a locked turnstile is rejected; a coin into an
// unlocked one is ignored (it keeps the coin and stays unlocked).
//
//        coin            push
//   locked ──► unlocked ──► locked
#ifndef MERILO_EXAMPLES_TURNSTILE_TURNSTILE_HPP
#define MERILO_EXAMPLES_TURNSTILE_TURNSTILE_HPP

#include <cstdint>
#include <string_view>

#include <merilo/fsm/fsm.hpp>
#include <merilo/fsm/world.hpp>

namespace turnstile {

namespace fsm = merilo::fsm;

/// The turnstile's control state. `none` is the zero sentinel: a machine no
/// one built with `make()` refuses everything.
enum class State : std::uint8_t { none, locked, unlocked };

/// What can happen to a turnstile. `none` is the zero sentinel.
enum class Event : std::uint8_t { none, coin, push };

[[nodiscard]] constexpr std::string_view name(State s) noexcept {
  switch (s) {
    case State::none:
      return "none";
    case State::locked:
      return "locked";
    case State::unlocked:
      return "unlocked";
  }
  return "?";
}

[[nodiscard]] constexpr std::string_view name(Event e) noexcept {
  switch (e) {
    case Event::none:
      return "none";
    case Event::coin:
      return "coin";
    case Event::push:
      return "push";
  }
  return "?";
}

/// A turnstile. A value type: `fire` returns the next one.
class Turnstile {
 public:
  /// The zero machine (state `none`), which refuses every event.
  constexpr Turnstile() noexcept = default;
  /// A new turnstile, locked.
  [[nodiscard]] static constexpr Turnstile make() noexcept { return Turnstile{State::locked}; }
  /// A turnstile in `s`, for tables and tests.
  [[nodiscard]] static constexpr Turnstile in(State s) noexcept { return Turnstile{s}; }

  [[nodiscard]] constexpr State state() const noexcept { return state_; }

  [[nodiscard]] constexpr fsm::Fired<Turnstile> fire(Event e) const noexcept {
    using fsm::Outcome;
    switch (state_) {
      case State::locked:
        switch (e) {
          case Event::coin:
            return {Turnstile{State::unlocked}, {}, Outcome::moved};
          case Event::push:
            return {*this, {}, Outcome::rejected};
          case Event::none:
            break;
        }
        break;
      case State::unlocked:
        switch (e) {
          case Event::coin:
            return {*this, {}, Outcome::ignored};
          case Event::push:
            return {Turnstile{State::locked}, {}, Outcome::moved};
          case Event::none:
            break;
        }
        break;
      case State::none:
        break;
    }
    return {*this, {}, Outcome::invalid};
  }

  friend constexpr bool operator==(const Turnstile&, const Turnstile&) noexcept = default;

 private:
  constexpr explicit Turnstile(State s) noexcept : state_(s) {}
  State state_ = State::none;
};

static_assert(fsm::Machine<Turnstile, Event>);
static_assert(fsm::ByteHashable<Turnstile>);

}  // namespace turnstile

#endif  // MERILO_EXAMPLES_TURNSTILE_TURNSTILE_HPP
