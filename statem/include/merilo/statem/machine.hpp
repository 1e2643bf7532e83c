// merilo/statem/machine.hpp — a fsm machine as statem's model, its holder as
// the system under test.
//
// The machine a program runs in production is already the best model of how
// its holder (the wrapper that owns the machine and performs its actions)
// must behave. This bridge builds a statem `Spec` from a small *binding*:
// commands are the machine's events, `next_model` is `fire(event).next`, and
// the response the machine's `Fired` implies (outcome, actions) is the
// response expected from the holder. The same definition that the explorer
// searches exhaustively is then the oracle for random tests of the real
// wrapper: one definition, several verifications.
//
// Example (an order machine, its Holder and a recording environment):
//
//   struct OrderBinding {
//     using machine_type = order::Order;
//     using event_type = order::Event;
//     using sut_type = std::unique_ptr<Rig>;        // holder + recorder
//     using response_type = Performed;              // refusal + actions done
//     order::Order initial() const { return order::Order::make(); }
//     statem::Gen<order::Event> events(const order::Order&) const {
//       return statem::element_of<order::Event>({order::Event::submit, ...});
//     }
//     sut_type new_sut() const { return std::make_unique<Rig>(); }
//     Performed apply(sut_type& rig, order::Event e) const;          // drive the holder
//     Performed expected(const order::Order&, order::Event, const Fired& f) const;
//   };
//   auto r = statem::check(statem::machine_spec(OrderBinding{}), {.seed = 1});
//
// A binding may also define, and the bridge then uses:
//   bool admit(const machine_type&, const event_type&)   precondition (default: all)
//   machine_type observe(const sut_type&)                 the holder's machine, compared
//                                                         with the model after each event
//   Verdict finish(sut_type&, const machine_type&)        end-of-list checks
//   void teardown(sut_type&)                              release the system
//   static std::string describe(const X&)                 text for events, responses and
//                                                         machines (else `name(x)` found
//                                                         by ADL, else fmt, else a number)
//
// Violations: `machine.response` when the holder's response differs from
// the one the machine implies, `machine.state` when `observe` differs from
// the model.
//
// NOTE: the binding is copied into the spec; keep it cheap to copy.
#ifndef MERILO_STATEM_MACHINE_HPP
#define MERILO_STATEM_MACHINE_HPP

#include <concepts>     // the binding concept
#include <string>       // describe
#include <string_view>  // violation tags
#include <type_traits>  // std::is_enum_v
#include <utility>      // std::move

#include <fmt/core.h>

#include <merilo/fsm/fsm.hpp>
#include <merilo/statem/statem.hpp>

namespace merilo::statem {

/// The tag of a holder response that differs from the machine's.
inline constexpr std::string_view kResponseTag = "machine.response";
/// The tag of a holder whose machine differs from the model (`observe`).
inline constexpr std::string_view kStateTag = "machine.state";

/// What the bridge needs: a machine and event type, the holder type, a
/// response type compared with `==`, and the operations listed in the
/// header overview.
template <class B>
concept MachineBinding = requires {
  typename B::machine_type;
  typename B::event_type;
  typename B::sut_type;
  typename B::response_type;
}
&&fsm::Machine<typename B::machine_type, typename B::event_type>&&
    std::copyable<typename B::event_type>&& std::equality_comparable<typename B::response_type>&&
        std::move_constructible<typename B::sut_type>&& requires(B& b,
                                                                 const typename B::machine_type& m,
                                                                 const typename B::event_type& e,
                                                                 typename B::sut_type& sut) {
  { b.initial() } -> std::convertible_to<typename B::machine_type>;
  { b.events(m) } -> std::convertible_to<Gen<typename B::event_type>>;
  { b.new_sut() } -> std::convertible_to<typename B::sut_type>;
  { b.apply(sut, e) } -> std::convertible_to<typename B::response_type>;
  { b.expected(m, e, m.fire(e)) } -> std::convertible_to<typename B::response_type>;
};

/// One command of a machine spec: an event to fire.
template <class B>
struct Fire {
  typename B::event_type event;

  /// Equal events (when the event type has `==`).
  bool operator==(
      const Fire& other) const requires std::equality_comparable<typename B::event_type> {
    return event == other.event;
  }
};

namespace detail {

/// Text for `x`: the binding's static `describe`, else `name(x)` by ADL,
/// else fmt, else the enum's number, else a placeholder.
template <class B, class X>
std::string describe(const X& x) {
  if constexpr (requires {
                  { B::describe(x) } -> std::convertible_to<std::string>;
                }) {
    return B::describe(x);
  } else if constexpr (requires {
                         { name(x) } -> std::convertible_to<std::string_view>;
                       }) {
    return std::string(std::string_view(name(x)));
  } else if constexpr (fmt::is_formattable<X>::value) {
    return fmt::format("{}", x);
  } else if constexpr (std::is_enum_v<X>) {
    return fmt::format("#{}", static_cast<long long>(x));
  } else {
    return "<no describe>";
  }
}

}  // namespace detail

/// The statem spec built from binding `B` (see the header overview).
template <MachineBinding B>
class MachineSpec {
 public:
  using model_type = typename B::machine_type;
  using command_type = Fire<B>;
  using sut_type = typename B::sut_type;

  /// A spec over `binding`.
  explicit MachineSpec(B binding = B{}) : binding_(std::move(binding)) {}

  /// The binding, e.g. to read what a test instrumented.
  [[nodiscard]] B& binding() noexcept { return binding_; }

  model_type initial() { return binding_.initial(); }

  Gen<command_type> command(const model_type& m) {
    return map(binding_.events(m), [](const typename B::event_type& e) { return Fire<B>{e}; });
  }

  Admission precondition(const model_type& m, const command_type& c) {
    if constexpr (requires {
                    { binding_.admit(m, c.event) } -> std::convertible_to<bool>;
                  }) {
      return binding_.admit(m, c.event) ? Admission::admit : Admission::reject;
    } else {
      return Admission::admit;
    }
  }

  model_type next_model(const model_type& m, const command_type& c) { return m.fire(c.event).next; }

  sut_type new_sut() { return binding_.new_sut(); }

  Verdict execute(sut_type& sut, const model_type& before, const command_type& c) {
    const auto fired = before.fire(c.event);
    const typename B::response_type want = binding_.expected(before, c.event, fired);
    const typename B::response_type got = binding_.apply(sut, c.event);
    if (!(got == want)) {
      return fail(std::string(kResponseTag),
                  fmt::format("event {} in {}: the holder answered {}, the machine says {}",
                              detail::describe<B>(c.event), detail::describe<B>(before),
                              detail::describe<B>(got), detail::describe<B>(want)));
    }
    if constexpr (requires {
                    { binding_.observe(sut) } -> std::convertible_to<model_type>;
                  }) {
      const model_type held = binding_.observe(sut);
      if (!(held == fired.next)) {
        return fail(std::string(kStateTag),
                    fmt::format("after event {} the holder's machine is {}, the model's is {}",
                                detail::describe<B>(c.event), detail::describe<B>(held),
                                detail::describe<B>(fired.next)));
      }
    }
    return ok();
  }

  Verdict finish(sut_type& sut, const model_type& m) {
    if constexpr (requires {
                    { binding_.finish(sut, m) } -> std::same_as<Verdict>;
                  }) {
      return binding_.finish(sut, m);
    } else {
      return ok();
    }
  }

  void teardown(sut_type& sut) {
    if constexpr (requires { binding_.teardown(sut); }) binding_.teardown(sut);
  }

 private:
  B binding_;
};

/// The spec of `binding`: `statem::check(machine_spec(MyBinding{}), config)`.
template <MachineBinding B>
[[nodiscard]] MachineSpec<B> machine_spec(B binding) {
  return MachineSpec<B>{std::move(binding)};
}

}  // namespace merilo::statem

/// Prints a `Fire` command as its event (see `detail::describe`).
template <class B>
struct fmt::formatter<merilo::statem::Fire<B>> : fmt::formatter<std::string_view> {
  auto format(const merilo::statem::Fire<B>& f, fmt::format_context& ctx) const {
    return fmt::format_to(ctx.out(), "{}", merilo::statem::detail::describe<B>(f.event));
  }
};

#endif  // MERILO_STATEM_MACHINE_HPP
