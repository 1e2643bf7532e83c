// merilo/parallel/detail/steps.hpp — the one place that picks which form of
// a spec's `next_model` and `command` to call: with the response and the
// caller where a call ran, by the command alone (or not at all) while a case
// is drawn.
#ifndef MERILO_PARALLEL_DETAIL_STEPS_HPP
#define MERILO_PARALLEL_DETAIL_STEPS_HPP

#include <merilo/linearize/model.hpp>  // linearize::Caller
#include <merilo/parallel/spec.hpp>    // the step concepts
#include <merilo/statem/gen.hpp>       // statem::Gen

namespace merilo::parallel::detail {

/// The model after `cmd`, which `caller` ran and which answered `response`:
/// the widest `next_model` form the spec has.
template <class S>
model_t<S> observed_next(S& spec, const model_t<S>& model, const command_t<S>& cmd,
                         const response_t<S>& response, linearize::Caller caller) {
  if constexpr (StepsOnCaller<S>) {
    return spec.next_model(model, cmd, response, caller);
  } else if constexpr (StepsOnResponse<S>) {
    return spec.next_model(model, cmd, response);
  } else {
    return spec.next_model(model, cmd);
  }
}

/// The model after `cmd` while a case is drawn (nothing ran, so there is no
/// response): the two-argument `next_model`, or the model unchanged when
/// the spec has only the response-seeing forms.
template <class S>
model_t<S> planned_next(S& spec, const model_t<S>& model, const command_t<S>& cmd) {
  if constexpr (StepsOnCommand<S>) {
    return spec.next_model(model, cmd);
  } else {
    return model;
  }
}

/// The commands `caller` (a branch's index, or `kPrefixCaller`) draws in
/// `model`.
template <class S>
statem::Gen<command_t<S>> commands_for(S& spec, const model_t<S>& model, linearize::Caller caller) {
  if constexpr (DrawsPerBranch<S>) {
    return spec.command(model, caller);
  } else {
    return spec.command(model);
  }
}

}  // namespace merilo::parallel::detail

#endif  // MERILO_PARALLEL_DETAIL_STEPS_HPP
