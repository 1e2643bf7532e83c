// merilo/statem/binding.hpp — what a machine's holder binding is, shared by
// the sequential bridge (statem/machine.hpp) and the concurrent one
// (parallel/machine.hpp).
//
// A *binding* ties a fsm machine (the model) to its holder (the production
// wrapper that owns the machine and performs its actions): how to build
// both, which events to draw, how to drive the holder with one and what
// response the machine's `Fired` implies. Both bridges turn the same
// binding into a spec whose commands are `Fire<event_type>`, whose
// `next_model` is `fire(event).next`, and whose judgement is "the holder
// answered what the machine implies" (`kResponseTag`); this header holds
// those shared pieces, so the two bridges differ only in what their testers
// need (statem's `observe`, parallel's model hashing).
//
// Example (a binding; statem/machine.hpp and parallel/machine.hpp show it
// used):
//
//   struct OrderBinding {
//     using machine_type = order::Order;
//     using event_type = order::Event;
//     using sut_type = std::unique_ptr<Rig>;
//     using response_type = Performed;
//     order::Order initial() const;
//     statem::Gen<order::Event> events(const order::Order&) const;
//     sut_type new_sut() const;
//     Performed apply(sut_type&, order::Event) const;
//     Performed expected(const order::Order&, order::Event, const Fired&) const;
//   };
#ifndef MERILO_STATEM_BINDING_HPP
#define MERILO_STATEM_BINDING_HPP

#include <concepts>     // the binding concept
#include <string>       // violation text
#include <string_view>  // violation tags

#include <merilo/core/describe.hpp>     // events and responses as text
#include <merilo/fsm/fsm.hpp>           // fsm::Machine
#include <merilo/statem/gen.hpp>        // Gen
#include <merilo/statem/statem.hpp>     // Admission
#include <merilo/statem/violation.hpp>  // Violation

namespace merilo::statem {

/// The tag of a holder response that differs from the machine's.
inline constexpr std::string_view kResponseTag = "machine.response";

/// What both bridges need of a binding: a machine and event type, the holder
/// type, a response type compared with `==`, events and responses that
/// `core::describe` can print, and `initial`, `events`, `new_sut`, `apply`
/// and `expected` (see the header overview). Each bridge adds its own
/// requirements (statem/machine.hpp, parallel/machine.hpp).
// clang-format off
template <class B>
concept HolderBinding =
    requires {
      typename B::machine_type;
      typename B::event_type;
      typename B::sut_type;
      typename B::response_type;
    } &&
    fsm::Machine<typename B::machine_type, typename B::event_type> &&
    std::copyable<typename B::event_type> &&
    std::equality_comparable<typename B::response_type> &&
    std::move_constructible<typename B::sut_type> &&
    core::Describable<typename B::event_type> &&
    core::Describable<typename B::response_type> &&
    requires(B& b, const typename B::machine_type& m, const typename B::event_type& e,
             typename B::sut_type& sut) {
      { b.initial() } -> std::convertible_to<typename B::machine_type>;
      { b.events(m) } -> std::convertible_to<Gen<typename B::event_type>>;
      { b.new_sut() } -> std::convertible_to<typename B::sut_type>;
      { b.apply(sut, e) } -> std::convertible_to<typename B::response_type>;
      { b.expected(m, e, m.fire(e)) } -> std::convertible_to<typename B::response_type>;
    };
// clang-format on

/// One command of a machine spec: an event to fire at the holder.
template <class E>
struct Fire {
  E event;  ///< The event.

  /// Equal events (when the event type has `==`).
  bool operator==(const Fire& other) const requires std::equality_comparable<E> {
    return event == other.event;
  }
  /// A `Fire` prints as its event (`core::describe`'s customization point).
  friend std::string merilo_describe(const Fire& f) { return core::describe(f.event); }
};

/// The commands of binding `b` in machine `m`: its events, each a `Fire`.
template <HolderBinding B>
[[nodiscard]] Gen<Fire<typename B::event_type>> fire_events(B& b,
                                                            const typename B::machine_type& m) {
  return map(b.events(m),
             [](const typename B::event_type& e) { return Fire<typename B::event_type>{e}; });
}

/// The binding's `admit(m, event)`, or admit everything when it has none.
template <HolderBinding B>
[[nodiscard]] Admission binding_admits(B& b, const typename B::machine_type& m,
                                       const typename B::event_type& e) {
  if constexpr (requires {
                  { b.admit(m, e) } -> std::convertible_to<bool>;
                }) {
    return b.admit(m, e) ? Admission::admit : Admission::reject;
  } else {
    return Admission::admit;
  }
}

/// The binding's `teardown(sut)`, when it has one.
template <HolderBinding B>
void binding_teardown(B& b, typename B::sut_type& sut) {
  if constexpr (requires { b.teardown(sut); }) b.teardown(sut);
}

/// The `kResponseTag` violation of a holder that answered `got` to `event`
/// where the machine implies `want`; `where` (e.g. " in <machine>", or
/// empty) follows the event in the text.
template <class E, class R>
[[nodiscard]] Violation response_mismatch(const E& event, std::string_view where, const R& got,
                                          const R& want) {
  return Violation{std::string(kResponseTag), "event " + core::describe(event) +
                                                  std::string(where) + ": the holder answered " +
                                                  core::describe(got) + ", the machine says " +
                                                  core::describe(want)};
}

}  // namespace merilo::statem

#endif  // MERILO_STATEM_BINDING_HPP
