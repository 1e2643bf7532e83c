// order.hpp — a payment order: submit a charge to a payment provider, resend
// it on timeout up to a retry limit, and end as paid, failed or cancelled.
//
// The machine shows the patterns merilo's examples teach:
//   * retries in an fsm::Counter, which refuses at its limit instead of
//     wrapping, and a `failed` end when it does;
//   * side effects as actions (send, resend, start/cancel the timer) that
//     the holder performs in declaration order; `fire` itself does no I/O;
//   * the timer as an event: the holder owns the real timer and fires
//     `timeout` when it expires. A stopped timer can still deliver one late
//     expiry, so every state but `pending` ignores `timeout`;
//   * modes derived from the state (`mode()`), so a holder or adapter can
//     check that the mode only changes along declared edges.
//
//   idle ──submit──► pending ──ack──► paid
//     │               │  ▲ timeout (retries left): resend
//     │               │  └──────┘
//     │               ├──timeout (no retries left)──► failed
//     └──cancel──►  cancelled ◄──cancel──┘
#ifndef MERILO_EXAMPLES_ORDER_ORDER_HPP
#define MERILO_EXAMPLES_ORDER_ORDER_HPP

#include <cstdint>
#include <string_view>

#include <merilo/fsm/fsm.hpp>
#include <merilo/fsm/world.hpp>

namespace order {

namespace fsm = merilo::fsm;

enum class State : std::uint8_t { none, idle, pending, paid, failed, cancelled };
enum class Event : std::uint8_t { none, submit, ack, timeout, cancel };
/// What the holder must do, in this order.
enum class Action : std::uint8_t { send, resend, start_timer, cancel_timer };
/// The order's mode, derived from its state.
enum class Mode : std::uint8_t { none, open, waiting, closed };

using Actions = fsm::ActionSet<Action>;

[[nodiscard]] constexpr std::string_view name(State s) noexcept {
  switch (s) {
    case State::none:
      return "none";
    case State::idle:
      return "idle";
    case State::pending:
      return "pending";
    case State::paid:
      return "paid";
    case State::failed:
      return "failed";
    case State::cancelled:
      return "cancelled";
  }
  return "?";
}

[[nodiscard]] constexpr std::string_view name(Event e) noexcept {
  switch (e) {
    case Event::none:
      return "none";
    case Event::submit:
      return "submit";
    case Event::ack:
      return "ack";
    case Event::timeout:
      return "timeout";
    case Event::cancel:
      return "cancel";
  }
  return "?";
}

[[nodiscard]] constexpr std::string_view name(Action a) noexcept {
  switch (a) {
    case Action::send:
      return "send";
    case Action::resend:
      return "resend";
    case Action::start_timer:
      return "start_timer";
    case Action::cancel_timer:
      return "cancel_timer";
  }
  return "?";
}

[[nodiscard]] constexpr std::string_view name(Mode m) noexcept {
  switch (m) {
    case Mode::none:
      return "none";
    case Mode::open:
      return "open";
    case Mode::waiting:
      return "waiting";
    case Mode::closed:
      return "closed";
  }
  return "?";
}

/// Whether an order may go from mode `from` to mode `to` in one step.
[[nodiscard]] constexpr bool mode_change_allowed(Mode from, Mode to) noexcept {
  if (from == to) return true;
  return (from == Mode::open && (to == Mode::waiting || to == Mode::closed)) ||
         (from == Mode::waiting && to == Mode::closed);
}

/// One payment order. A value type; `fire` is the only way it changes.
class Order {
 public:
  /// Resends after the first send.
  static constexpr std::uint64_t kMaxRetries = 2;

  /// The zero machine (state `none`): refuses every event as invalid.
  constexpr Order() noexcept = default;
  /// A new order, not yet submitted.
  [[nodiscard]] static constexpr Order make() noexcept { return Order{State::idle, 0}; }
  /// An order in `s` having used `retries` resends, for tables and tests.
  [[nodiscard]] static constexpr Order in(State s, std::uint64_t retries = 0) noexcept {
    return Order{s, retries};
  }

  [[nodiscard]] constexpr State state() const noexcept { return state_; }
  [[nodiscard]] constexpr std::uint64_t retries() const noexcept { return retries_.value(); }

  [[nodiscard]] constexpr Mode mode() const noexcept {
    switch (state_) {
      case State::idle:
        return Mode::open;
      case State::pending:
        return Mode::waiting;
      case State::paid:
      case State::failed:
      case State::cancelled:
        return Mode::closed;
      case State::none:
        return Mode::none;
    }
    return Mode::none;
  }

  [[nodiscard]] constexpr fsm::Fired<Order, Action> fire(Event e) const noexcept {
    if (e == Event::none) return refuse(fsm::Outcome::invalid);
    switch (state_) {
      case State::idle:
        return fire_idle(e);
      case State::pending:
        return fire_pending(e);
      case State::paid:
      case State::failed:
      case State::cancelled:
        return fire_closed(e);
      case State::none:
        return refuse(fsm::Outcome::invalid);
    }
    return refuse(fsm::Outcome::invalid);
  }

  friend constexpr bool operator==(const Order&, const Order&) noexcept = default;

 private:
  constexpr Order(State s, std::uint64_t retries) noexcept : state_(s) {
    for (std::uint64_t i = 0; i < retries; ++i) retries_ = retries_.inc().next;
  }

  [[nodiscard]] constexpr fsm::Fired<Order, Action> refuse(fsm::Outcome o) const noexcept {
    return {*this, {}, o};
  }
  [[nodiscard]] constexpr fsm::Fired<Order, Action> to(State s, Actions acts) const noexcept {
    Order next = *this;
    next.state_ = s;
    return {next, acts, fsm::Outcome::moved};
  }

  [[nodiscard]] constexpr fsm::Fired<Order, Action> fire_idle(Event e) const noexcept {
    switch (e) {
      case Event::submit:
        return to(State::pending, Action::send | Actions{Action::start_timer});
      case Event::cancel:
        return to(State::cancelled, {});
      case Event::ack:
        return refuse(fsm::Outcome::rejected);  // nothing was sent
      case Event::timeout:
        return refuse(fsm::Outcome::ignored);
      case Event::none:
        break;
    }
    return refuse(fsm::Outcome::invalid);
  }

  [[nodiscard]] constexpr fsm::Fired<Order, Action> fire_pending(Event e) const noexcept {
    switch (e) {
      case Event::ack:
        return to(State::paid, Action::cancel_timer);
      case Event::cancel:
        return to(State::cancelled, Action::cancel_timer);
      case Event::submit:
        return refuse(fsm::Outcome::rejected);
      case Event::timeout: {
        auto [retries, ok] = retries_.inc();
        if (!ok) return to(State::failed, {});
        Order next = *this;
        next.retries_ = retries;
        return {next, Action::resend | Actions{Action::start_timer}, fsm::Outcome::moved};
      }
      case Event::none:
        break;
    }
    return refuse(fsm::Outcome::invalid);
  }

  [[nodiscard]] constexpr fsm::Fired<Order, Action> fire_closed(Event e) const noexcept {
    switch (e) {
      case Event::ack:      // a duplicate or late acknowledgement
      case Event::timeout:  // a late expiry of a stopped timer
        return refuse(fsm::Outcome::ignored);
      case Event::submit:
      case Event::cancel:
        return refuse(fsm::Outcome::rejected);
      case Event::none:
        break;
    }
    return refuse(fsm::Outcome::invalid);
  }

  fsm::Counter retries_{kMaxRetries};
  State state_ = State::none;
  std::uint8_t pad_[7] = {};  // explicit, zeroed: the bytes are the value
};

static_assert(fsm::Machine<Order, Event>);
static_assert(fsm::ByteHashable<Order>);

}  // namespace order

#endif  // MERILO_EXAMPLES_ORDER_ORDER_HPP
