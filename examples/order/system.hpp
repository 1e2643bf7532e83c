// system.hpp — one order, its payment provider, a lossy and duplicating
// network between them, a retry timer and a user who may cancel.
//
// Kinds: 0 submit, 1 cancel, 2 the timer fires, then for each network slot
// i: deliver i, drop i, duplicate i. The network holds at most kSlots
// messages (an explore::Network: sorted, so the order in which messages were
// sent does not split one world into many); a send into a full network is lost.
// The network duplicates at most once per run, which keeps the world count
// finite. The provider charges idempotently and acknowledges every charge
// request it receives.
//
// Invariants: "paid only after the provider charged" and "the timer runs
// only while pending". The search reaches 177 worlds, the farthest 9 steps
// away.
#ifndef MERILO_EXAMPLES_ORDER_SYSTEM_HPP
#define MERILO_EXAMPLES_ORDER_SYSTEM_HPP

#include <array>
#include <cstdint>
#include <string>

#include <merilo/explore/network.hpp>
#include <merilo/explore/system.hpp>
#include <merilo/fsm/world.hpp>

#include <order/order.hpp>

namespace order {

namespace ex = merilo::explore;

/// A message in flight; `none` marks an empty slot.
enum class Msg : std::uint8_t { none, charge, ack };

[[nodiscard]] constexpr std::string_view name(Msg m) noexcept {
  switch (m) {
    case Msg::none:
      return "none";
    case Msg::charge:
      return "charge";
    case Msg::ack:
      return "ack";
  }
  return "?";
}

/// The adapter merilo explores.
class System {
 public:
  static constexpr std::size_t kSlots = 3;
  static constexpr ex::Kind kSubmit = 0;
  static constexpr ex::Kind kCancel = 1;
  static constexpr ex::Kind kTimer = 2;
  static constexpr ex::Kind kDeliver = 3;
  static constexpr ex::Kind kDrop = kDeliver + kSlots;
  static constexpr ex::Kind kDuplicate = kDrop + kSlots;
  static constexpr ex::Kind kKinds = kDuplicate + kSlots;

  struct World {
    Order order;
    ex::Network<Msg, kSlots> net;   // in flight, sorted
    std::uint8_t charged = 0;       // the provider has charged
    std::uint8_t timer = 0;         // the retry timer is armed
    std::uint8_t dups_left = 1;     // duplications the network may still do
    std::uint8_t cancels_left = 1;  // the user may cancel once
    std::uint8_t pad = 0;
  };
  static_assert(merilo::fsm::ByteHashable<World>);

  void reset() { w_ = World{Order::make(), {}, 0, 0, 1, 1, 0}; }
  [[nodiscard]] std::size_t kinds() const { return kKinds; }

  [[nodiscard]] bool enabled(ex::Kind k) const {
    const State s = w_.order.state();
    if (k == kSubmit) return s == State::idle;
    if (k == kCancel) return w_.cancels_left > 0 && (s == State::idle || s == State::pending);
    if (k == kTimer) return w_.timer != 0;
    if (k < kDrop) return w_.net.occupied(k - kDeliver);
    if (k < kDuplicate) return w_.net.occupied(k - kDrop);
    return w_.dups_left > 0 && w_.net.occupied(k - kDuplicate) && !w_.net.full();
  }

  ex::Status apply(ex::Kind k) {
    if (k == kSubmit) return fire(Event::submit);
    if (k == kCancel) {
      --w_.cancels_left;
      return fire(Event::cancel);
    }
    if (k == kTimer) {
      w_.timer = 0;  // it expired
      return fire(Event::timeout);
    }
    if (k < kDrop) {
      const Msg m = w_.net.take(k - kDeliver);
      if (m == Msg::charge) {
        w_.charged = 1;
        push(Msg::ack);
        return {};
      }
      return fire(Event::ack);
    }
    if (k < kDuplicate) {
      w_.net.take(k - kDrop);
      return {};
    }
    --w_.dups_left;
    w_.net.duplicate(k - kDuplicate);
    return {};
  }

  [[nodiscard]] const World& world() const { return w_; }
  void restore(const World& w) { w_ = w; }

  /// The invariants, each a name and a predicate, listed once.
  [[nodiscard]] std::array<ex::Invariant<System>, 2> invariants() const {
    return {{{"paid only after the provider charged",
              [](const System& s) { return s.paid_after_charge(); }},
             {"the timer runs only while pending",
              [](const System& s) { return s.timer_only_while_pending(); }}}};
  }

  [[nodiscard]] std::string tuple() const {
    return "order:" + std::string(name(w_.order.state())) +
           (w_.charged != 0 ? " provider:charged" : " provider:idle");
  }

  [[nodiscard]] bool settled() const {
    return w_.order.mode() == Mode::closed && w_.net.empty() && w_.timer == 0;
  }

  [[nodiscard]] std::string describe(ex::Kind k) const {
    if (k == kSubmit) return "user submits";
    if (k == kCancel) return "user cancels";
    if (k == kTimer) return "timer fires";
    const char* verb = k < kDrop ? "deliver" : k < kDuplicate ? "drop" : "duplicate";
    const std::size_t slot = (k - kDeliver) % kSlots;
    const Msg m = w_.net[slot];
    const char* dir = m == Msg::charge ? "order->provider" : "provider->order";
    return std::string(verb) + " " + std::string(name(m)) + " " + dir;
  }

 private:
  [[nodiscard]] ex::InvariantCheck paid_after_charge() const {
    if (w_.order.state() != State::paid || w_.charged != 0) return true;
    return ex::InvariantCheck::fails("paid, but nothing was charged");
  }
  [[nodiscard]] ex::InvariantCheck timer_only_while_pending() const {
    const State s = w_.order.state();
    if (w_.timer == 0 || s == State::pending) return true;
    return ex::InvariantCheck::fails("timer armed in " + std::string(name(s)));
  }

  // Fires `e` at the order as its holder would, performing the actions.
  ex::Status fire(Event e) {
    const Mode before = w_.order.mode();
    auto [next, actions, outcome] = w_.order.fire(e);
    if (auto refusal = merilo::fsm::err(outcome)) {
      return ex::Status::error(std::string(name(e)) + " in " + std::string(name(w_.order.state())) +
                               " was " + std::string(refusal.what()));
    }
    if (!mode_change_allowed(before, next.mode())) {
      return ex::Status::mode_change(std::string(name(before)) + " -> " +
                                     std::string(name(next.mode())));
    }
    w_.order = next;
    actions.for_each([this](Action a) {
      switch (a) {
        case Action::send:
        case Action::resend:
          push(Msg::charge);
          return;
        case Action::start_timer:
          w_.timer = 1;
          return;
        case Action::cancel_timer:
          w_.timer = 0;
          return;
      }
    });
    return {};
  }

  // A send into a full network is lost.
  void push(Msg m) { (void)w_.net.send(m); }

  World w_{};
};

}  // namespace order

#endif  // MERILO_EXAMPLES_ORDER_SYSTEM_HPP
