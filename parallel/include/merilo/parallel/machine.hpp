// merilo/parallel/machine.hpp — a fsm machine as the model of a concurrent
// holder: the holder (the production wrapper that owns the machine behind
// a mutex) is raced from several threads and must answer as the machine,
// fired in some order consistent with the calls, says it would.
//
// This is the parallel counterpart of statem's machine bridge: the same
// machine definition the explorer searches is the oracle, `fire` is the
// model's step, and the response the machine's `Fired` implies (outcome,
// actions) is the response expected from the holder. The bridge builds a
// parallel `Spec` from a small *binding*:
//
//   struct LockBinding {
//     using machine_type = mutex::Server<>;                     // a linearize::Model
//     using event_type = mutex::Request;                        // core::Describable
//     using sut_type = std::unique_ptr<mutex::LockService<>>;   // shared by the threads
//     using response_type = mutex::Reply;                       // ==, core::Describable
//     machine_type initial() const { return machine_type::make(); }
//     statem::Gen<mutex::Request> events(const machine_type&) const;
//     sut_type new_sut() const { return std::make_unique<mutex::LockService<>>(); }
//     mutex::Reply apply(sut_type& s, const mutex::Request& r) const;    // called concurrently
//     mutex::Reply expected(const machine_type&, const mutex::Request&,
//                           const machine_type::Fired& f) const;        // what f implies
//   };
//   auto r = parallel::check(parallel::machine_spec(LockBinding{}), {.seed = 1});
//
// (examples/mutex/parallel.hpp is this binding, complete.)
//
// A binding may also define, and the bridge then uses:
//   bool admit(const machine_type&, const event_type&)   precondition (default: all)
//   MaybeViolation finish(sut_type&)                      end-state checks
//   void teardown(sut_type&)                              release the system
//
// Violations: `machine.response` when a holder's response is not the one
// the machine implies (in the prefix; in the race, every order failing that
// way is `parallel.not_linearizable`).
//
// NOTE: `apply` is called from several threads at once on one system, so
// the holder must be shared (a pointer) and meant for concurrent use. The
// binding is copied into the spec; keep it cheap to copy.
#ifndef MERILO_PARALLEL_MACHINE_HPP
#define MERILO_PARALLEL_MACHINE_HPP

#include <concepts>     // the binding concept
#include <string>       // violation text
#include <string_view>  // the tag
#include <utility>      // std::move

#include <merilo/core/describe.hpp>    // events, responses and machines as text
#include <merilo/fsm/fsm.hpp>          // fsm::Machine
#include <merilo/linearize/model.hpp>  // linearize::Model
#include <merilo/parallel/spec.hpp>    // Spec, MaybeViolation
#include <merilo/statem/binding.hpp>   // HolderBinding, Fire, kResponseTag, the shared steps

namespace merilo::parallel {

/// The tag of a holder response that differs from the machine's (statem's).
using statem::kResponseTag;
/// A command of a machine spec: an event to fire (statem's).
using statem::Fire;

/// What the concurrent bridge needs: a `statem::HolderBinding` whose machine
/// is a `linearize::Model` (the checker remembers the states it ruled out)
/// and whose response is copyable (histories keep it).
template <class B>
concept MachineBinding = statem::HolderBinding<B> && linearize::Model<typename B::machine_type> &&
    std::copyable<typename B::response_type>;

/// The parallel spec built from binding `B` (see the header overview).
template <MachineBinding B>
class MachineSpec {
 public:
  /// The machine is the model.
  using model_type = typename B::machine_type;
  /// A command fires one event.
  using command_type = Fire<typename B::event_type>;
  /// The binding's response.
  using response_type = typename B::response_type;
  /// The system under test: the holder.
  using sut_type = typename B::sut_type;

  /// A spec over `binding`.
  explicit MachineSpec(B binding = B{}) : binding_(std::move(binding)) {}

  /// The binding, e.g. to read what a test instrumented.
  [[nodiscard]] B& binding() noexcept { return binding_; }

  /// The binding's initial machine.
  model_type initial() { return binding_.initial(); }

  /// The binding's events, each wrapped in a `Fire`.
  statem::Gen<command_type> command(const model_type& m) {
    return statem::fire_events(binding_, m);
  }

  /// The binding's `admit`, or admit everything.
  statem::Admission precondition(const model_type& m, const command_type& c) {
    return statem::binding_admits(binding_, m, c.event);
  }

  /// The machine after the event: `fire(event).next`.
  model_type next_model(const model_type& m, const command_type& c) { return m.fire(c.event).next; }

  /// A fresh holder.
  sut_type new_sut() { return binding_.new_sut(); }

  /// The holder's answer to the event (called concurrently).
  response_type run(sut_type& sut, const command_type& c) { return binding_.apply(sut, c.event); }

  /// The answer the machine in `m` implies for the event, compared with `got`.
  MaybeViolation postcondition(const model_type& m, const command_type& c,
                               const response_type& got) {
    const response_type want = binding_.expected(m, c.event, m.fire(c.event));
    if (got == want) return std::nullopt;
    return statem::response_mismatch(c.event, "", got, want);
  }

  /// The binding's `finish`, or nothing to check.
  MaybeViolation finish(sut_type& sut) {
    if constexpr (requires {
                    { binding_.finish(sut) } -> std::same_as<MaybeViolation>;
                  }) {
      return binding_.finish(sut);
    } else {
      return std::nullopt;
    }
  }

  /// The binding's `teardown`, if any.
  void teardown(sut_type& sut) { statem::binding_teardown(binding_, sut); }

 private:
  B binding_;
};

/// The spec of `binding`: `parallel::check(machine_spec(MyBinding{}), config)`.
template <MachineBinding B>
[[nodiscard]] MachineSpec<B> machine_spec(B binding) {
  return MachineSpec<B>{std::move(binding)};
}

}  // namespace merilo::parallel

#endif  // MERILO_PARALLEL_MACHINE_HPP
