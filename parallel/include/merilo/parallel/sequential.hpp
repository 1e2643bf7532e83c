// merilo/parallel/sequential.hpp — one spec, both testers: a parallel spec
// run by statem, one command at a time on one thread.
//
// A parallel spec already says everything statem needs: how to draw a
// command, when one may run, how the model moves, how to build the system
// and judge an answer. `Sequential<S>` is that spec seen as a
// `statem::Spec`, its `execute` being
//
//   postcondition(model, cmd, run(sut, cmd))
//
// and its `finish(sut, model)` the parallel spec's `finish(sut)`. With this
// header, `statem::check`, `statem::check_run`, `statem::commands` and
// `statem::replay` take a parallel spec as they are, so a component is
// tested sequentially (long lists, shrunk by statem) and concurrently
// (short races, judged by linearizability) from one definition:
//
//   StockSpec spec;
//   auto seq = merilo::statem::check(spec, {.seed = 1});    // 100 lists of up to 100 calls
//   auto par = merilo::parallel::check(spec, {.seed = 1});  // 100 races of 2 branches
//
// (docs/examples/one_spec.cpp is such a spec, complete and compiled.)
// Sequential checks find the bugs a single caller meets, in lists far
// longer than a race holds; the concurrent check finds what only an
// overlap of calls breaks.
//
// How the parallel spec's variants map:
//   - `command(model, branch)` (`DrawsPerBranch`) is called with
//     `kPrefixCaller`: a sequential list is drawn as a prefix is.
//   - While a list is drawn (and while the shrinker checks preconditions)
//     nothing has run, so the model moves by the two-argument `next_model`,
//     or stays as it was when the spec has only the response-seeing forms,
//     exactly as for a parallel case. When the list executes, the model
//     moves by the widest form the spec has, given the response `run`
//     returned and the caller `kPrefixCaller`.
//
// NOTE: `Sequential` keeps the response of the command it has just run
// until statem asks for the next model, so one `Sequential` object serves
// one check at a time (statem calls a spec from one thread). The spec it
// wraps is held by reference when `sequential` is given an lvalue, and
// moved in otherwise.
#ifndef MERILO_PARALLEL_SEQUENTIAL_HPP
#define MERILO_PARALLEL_SEQUENTIAL_HPP

#include <cstddef>      // std::size_t
#include <optional>     // the response kept between execute and next_model
#include <type_traits>  // std::remove_cvref_t
#include <utility>      // std::forward, std::move
#include <vector>       // statem::replay's list

#include <merilo/parallel/detail/steps.hpp>  // which next_model / command form to call
#include <merilo/parallel/spec.hpp>          // parallel::Spec, kPrefixCaller
#include <merilo/statem/statem.hpp>          // statem::Spec and its entry points

namespace merilo::parallel {

/// A parallel spec `S` (a value type, or a reference to one) as a
/// `statem::Spec`; built by `sequential`.
template <class S>
class Sequential {
  using spec_type = std::remove_cvref_t<S>;

 public:
  /// The parallel spec's model.
  using model_type = typename spec_type::model_type;
  /// The parallel spec's command.
  using command_type = typename spec_type::command_type;
  /// The parallel spec's system.
  using sut_type = typename spec_type::sut_type;

  /// Wraps `spec` (held as `S`: a reference or a value).
  explicit Sequential(S spec) : spec_(std::forward<S>(spec)) {}

  /// The parallel spec's `initial()`.
  model_type initial() { return spec_.initial(); }
  /// The commands the prefix would draw in `model`.
  statem::Gen<command_type> command(const model_type& model) {
    return detail::commands_for(spec_, model, kPrefixCaller);
  }
  /// The parallel spec's `precondition`.
  statem::Admission precondition(const model_type& model, const command_type& cmd) {
    return spec_.precondition(model, cmd);
  }
  /// The model after `cmd`: with the response of `cmd` when `execute` has
  /// just run it, by the command alone otherwise (see the top of the file).
  model_type next_model(const model_type& model, const command_type& cmd) {
    if (last_) {
      std::optional<response_type> response = std::move(last_);
      last_.reset();
      return detail::observed_next(spec_, model, cmd, *response, kPrefixCaller);
    }
    return detail::planned_next(spec_, model, cmd);
  }
  /// The parallel spec's `new_sut()`.
  sut_type new_sut() {
    last_.reset();
    return spec_.new_sut();
  }
  /// `postcondition(model, cmd, run(sut, cmd))`.
  statem::MaybeViolation execute(sut_type& sut, const model_type& model, const command_type& cmd) {
    last_.reset();
    last_.emplace(spec_.run(sut, cmd));
    return spec_.postcondition(model, cmd, *last_);
  }
  /// The parallel spec's `finish(sut)`.
  statem::MaybeViolation finish(sut_type& sut, const model_type&) {
    last_.reset();
    return spec_.finish(sut);
  }
  /// The parallel spec's `teardown(sut)`.
  void teardown(sut_type& sut) {
    last_.reset();
    spec_.teardown(sut);
  }

  /// The parallel spec itself.
  [[nodiscard]] spec_type& spec() noexcept { return spec_; }

 private:
  using response_type = typename spec_type::response_type;

  S spec_;
  std::optional<response_type> last_;
};

/// `spec` seen by statem: held by reference for an lvalue, moved in for an
/// rvalue.
template <class S>
requires Spec<std::remove_cvref_t<S>>
[[nodiscard]] Sequential<S> sequential(S&& spec) { return Sequential<S>(std::forward<S>(spec)); }

/// A parallel spec that is not also a statem spec (a class may be both;
/// it is then statem's own spec that statem runs).
template <class S>
concept SharedOnly = Spec<std::remove_cvref_t<S>> && !statem::Spec<std::remove_cvref_t<S>>;

}  // namespace merilo::parallel

// statem's entry points, taking a parallel spec through `sequential`.
namespace merilo::statem {

/// `statem::check` of a parallel spec: `check(parallel::sequential(spec), config)`.
template <class S>
requires parallel::SharedOnly<S>
[[nodiscard]] CheckResult<statem::command_t<S>> check(S&& spec, const CheckOptions& config) {
  return check(parallel::sequential(std::forward<S>(spec)), config);
}

/// `statem::check_run` of a parallel spec, through `sequential`.
template <class S>
requires parallel::SharedOnly<S>
[[nodiscard]] CheckResult<statem::command_t<S>> check_run(S&& spec, const CheckOptions& config,
                                                          std::size_t run) {
  return check_run(parallel::sequential(std::forward<S>(spec)), config, run);
}

/// `statem::commands` of a parallel spec, through `sequential`.
template <class S>
requires parallel::SharedOnly<S>
[[nodiscard]] Commands<statem::command_t<S>> commands(S&& spec, const CheckOptions& config,
                                                      std::size_t run) {
  return commands(parallel::sequential(std::forward<S>(spec)), config, run);
}

/// `statem::replay` of a parallel spec, through `sequential`.
template <class S>
requires parallel::SharedOnly<S>
[[nodiscard]] Execution replay(S&& spec, const std::vector<statem::command_t<S>>& list) {
  return replay(parallel::sequential(std::forward<S>(spec)), list);
}

}  // namespace merilo::statem

#endif  // MERILO_PARALLEL_SEQUENTIAL_HPP
