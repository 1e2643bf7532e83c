// holder.hpp — the production wrapper that owns one Order.
//
// A holder is the only code that keeps a machine: it replaces the machine
// with each `fire` result in place, reports refusals through fsm::err, and
// performs the returned actions in declaration order through its
// environment. `orderd` runs one with a real timer; statem tests run one
// against a model built from the same Order.
//
// `HolderBug` seeds holder mistakes for the tests, switched at compile time:
//   * `forget_cancel_timer` — never performs cancel_timer, so a paid or
//     cancelled order leaves its timer running;
//   * `double_send` — performs `send` twice, charging the provider with a
//     duplicate request.
#ifndef MERILO_EXAMPLES_ORDER_HOLDER_HPP
#define MERILO_EXAMPLES_ORDER_HOLDER_HPP

#include <concepts>
#include <cstdint>

#include <order/order.hpp>

namespace order {

/// What a holder needs from the world around it.
template <class E>
concept Environment = requires(E& env) {
  env.send_charge();   // ask the provider for the charge (first time or again)
  env.start_timer();   // (re)arm the retry timer
  env.cancel_timer();  // disarm it
};

/// Seeded holder bugs.
enum class HolderBug : std::uint8_t { none, forget_cancel_timer, double_send };

/// Owns one order and performs its actions through `Env`.
template <Environment Env, HolderBug bug = HolderBug::none>
class Holder {
 public:
  explicit Holder(Env& env) noexcept : env_(env) {}

  /// Fires `e`. On a refusal the order is unchanged and the refusal is
  /// returned for the caller to report; otherwise the actions are performed.
  fsm::Refusal handle(Event e) {
    auto [next, actions, outcome] = order_.fire(e);
    if (auto refusal = fsm::err(outcome)) return refusal;
    order_ = next;
    actions.for_each([this](Action a) { perform(a); });
    return {};
  }

  [[nodiscard]] const Order& order() const noexcept { return order_; }

 private:
  void perform(Action a) {
    switch (a) {
      case Action::send:
        env_.send_charge();
        if constexpr (bug == HolderBug::double_send) env_.send_charge();
        return;
      case Action::resend:
        env_.send_charge();
        return;
      case Action::start_timer:
        env_.start_timer();
        return;
      case Action::cancel_timer:
        if constexpr (bug != HolderBug::forget_cancel_timer) env_.cancel_timer();
        return;
    }
  }

  Env& env_;
  Order order_ = Order::make();
};

}  // namespace order

#endif  // MERILO_EXAMPLES_ORDER_HOLDER_HPP
