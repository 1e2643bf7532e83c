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
// Example (an order machine, its Holder and a recording environment; the
// compiled version is tests/statem/examples_test.cpp):
//
// clang-format off
//   struct OrderBinding {
//     using machine_type = order::Order;
//     using event_type = order::Event;
//     using sut_type = std::unique_ptr<Rig>;        // holder + recorder
//     using response_type = Performed;              // refusal + actions done
//     order::Order initial() const { return order::Order::make(); }
//     statem::Gen<order::Event> events(const order::Order&) const {
//       return statem::element_of<order::Event>({order::Event::submit, order::Event::cancel});
//     }
//     sut_type new_sut() const { return std::make_unique<Rig>(); }
//     Performed apply(sut_type& rig, order::Event e) const;          // drive the holder
//     Performed expected(const order::Order&, order::Event, const Fired& f) const;
//   };
//   auto r = statem::check(statem::machine_spec(OrderBinding{}), {.seed = 1});
// clang-format on
//
// A binding may also define, and the bridge then uses:
//
// clang-format off
//   bool admit(const machine_type&, const event_type&)   precondition (default: all)
//   machine_type observe(const sut_type&)                 the holder's machine, compared
//                                                         with the model after each event
//   MaybeViolation finish(sut_type&, const machine_type&) end-of-list checks
//   void teardown(sut_type&)                              release the system
// clang-format on
//
// Events, machines and responses appear in violations and reports through
// `core::describe` only (so each must be `core::Describable`: give a type
// without text a `merilo_describe` in its namespace, an enum a `name`).
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
#include <utility>      // std::move

#include <merilo/core/describe.hpp>
#include <merilo/fsm/fsm.hpp>
#include <merilo/statem/binding.hpp>  // HolderBinding, Fire, kResponseTag
#include <merilo/statem/statem.hpp>

namespace merilo::statem {

/// The tag of a holder whose machine differs from the model (`observe`).
inline constexpr std::string_view kStateTag = "machine.state";

/// What the sequential bridge needs: a `HolderBinding` (binding.hpp) whose
/// machine `core::describe` can print too (violations name it).
template <class B>
concept MachineBinding = HolderBinding<B> && core::Describable<typename B::machine_type>;

/// The statem spec built from binding `B` (see the header overview).
template <MachineBinding B>
class MachineSpec {
 public:
  /// The machine is the model.
  using model_type = typename B::machine_type;
  /// A command fires one event.
  using command_type = Fire<typename B::event_type>;
  /// The system under test: the holder.
  using sut_type = typename B::sut_type;

  /// A spec over `binding`.
  explicit MachineSpec(B binding = B{}) : binding_(std::move(binding)) {}

  /// The binding, e.g. to read what a test instrumented.
  [[nodiscard]] B& binding() noexcept { return binding_; }

  /// The binding's initial machine.
  model_type initial() { return binding_.initial(); }

  /// The binding's events for `m`, each as a `Fire`.
  Gen<command_type> command(const model_type& m) { return fire_events(binding_, m); }

  /// The binding's `admit`, or admit everything.
  Admission precondition(const model_type& m, const command_type& c) {
    return binding_admits(binding_, m, c.event);
  }

  /// `m.fire(event).next`.
  model_type next_model(const model_type& m, const command_type& c) { return m.fire(c.event).next; }

  /// The binding's fresh holder.
  sut_type new_sut() { return binding_.new_sut(); }

  /// Drives the holder and compares its response (and, with `observe`, its
  /// machine) with what the machine implies.
  MaybeViolation execute(sut_type& sut, const model_type& before, const command_type& c) {
    const auto fired = before.fire(c.event);
    const typename B::response_type want = binding_.expected(before, c.event, fired);
    const typename B::response_type got = binding_.apply(sut, c.event);
    if (!(got == want))
      return response_mismatch(c.event, " in " + core::describe(before), got, want);
    if constexpr (requires {
                    { binding_.observe(sut) } -> std::convertible_to<model_type>;
                  }) {
      const model_type held = binding_.observe(sut);
      if (!(held == fired.next)) {
        return fail(std::string(kStateTag), "after event " + core::describe(c.event) +
                                                " the holder's machine is " + core::describe(held) +
                                                ", the model's is " + core::describe(fired.next));
      }
    }
    return ok();
  }

  /// The binding's `finish`, or nothing to check.
  MaybeViolation finish(sut_type& sut, const model_type& m) {
    if constexpr (requires {
                    { binding_.finish(sut, m) } -> std::same_as<MaybeViolation>;
                  }) {
      return binding_.finish(sut, m);
    } else {
      return ok();
    }
  }

  /// The binding's `teardown`, if it has one.
  void teardown(sut_type& sut) { binding_teardown(binding_, sut); }

 private:
  B binding_;
};

/// The spec of `binding`: `statem::check(machine_spec(MyBinding{}), config)`.
template <MachineBinding B>
[[nodiscard]] MachineSpec<B> machine_spec(B binding) {
  return MachineSpec<B>{std::move(binding)};
}

}  // namespace merilo::statem

#endif  // MERILO_STATEM_MACHINE_HPP
