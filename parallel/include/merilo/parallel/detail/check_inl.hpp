// merilo/parallel/detail/check_inl.hpp — template bodies of parallel.hpp:
// the run loop (generate, repeat, then shrink) and the entry points.
#ifndef MERILO_PARALLEL_DETAIL_CHECK_INL_HPP
#define MERILO_PARALLEL_DETAIL_CHECK_INL_HPP

#include <cstddef>
#include <memory>
#include <string>
#include <utility>

#include <merilo/core/reentry.hpp>
#include <merilo/parallel/detail/crew.hpp>
#include <merilo/parallel/detail/execute_inl.hpp>
#include <merilo/parallel/detail/generate_inl.hpp>
#include <merilo/parallel/detail/shrink_inl.hpp>

namespace merilo::parallel {

namespace detail {

/// Runs `count` runs from `first` (config checked and clamped) into
/// `result`. A count, not an end, so that run SIZE_MAX is a run too.
template <class S>
void run_range(const std::shared_ptr<S>& spec, const CheckConfig& config, std::size_t first,
               std::size_t count, CheckResult<command_of<S>, response_of<S>>& result) {
  using Cmd = command_of<S>;
  using Resp = response_of<S>;
  Crew crew;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t run = first + i;
    ++result.runs;
    Drawn<Cmd> drawn = draw_case(*spec, config, run);
    Failure<Cmd, Resp> f;
    f.seed = *config.seed;
    f.run = run;
    f.branches = config.branches;
    f.max_prefix = config.max_prefix;
    f.max_branch = config.max_branch;
    f.original = drawn.c;
    f.shrunk = drawn.c;
    if (drawn.crash) {
      f.violation = *drawn.crash;
      f.violation.detail += " (while drawing the case)";
      f.original_violation = f.violation;
      f.evidence = Evidence::unrecorded;
      result.failure = std::move(f);
      return;
    }
    if (drawn.c.branches.size() < kMinBranches) {
      f.violation = statem::Violation{
          std::string(kNoRaceTag),
          "the case has " + std::to_string(drawn.c.branches.size()) +
              " non-empty branch(es) after " + std::to_string(kMaxRedraws) +
              " redraws and trimming: the preconditions admit no two commands in every "
              "interleaving after this prefix, so nothing raced"};
      f.original_violation = f.violation;
      f.evidence = Evidence::no_race;
      result.failure = std::move(f);
      return;
    }
    for (std::size_t rep = 0; rep < config.repeat; ++rep) {
      auto o = execute(spec, crew, config, drawn.c);
      ++f.executions;
      ++result.executions;
      if (!o.violation) continue;
      take_evidence(f, std::move(o));
      f.original_violation = f.violation;
      const std::size_t before = f.executions;
      shrink(spec, crew, config, f);
      result.executions += f.executions - before;
      result.failure = std::move(f);
      return;
    }
  }
}

template <class S>
CheckResult<command_of<S>, response_of<S>> check_range(std::shared_ptr<S> spec,
                                                       const CheckConfig& config, std::size_t first,
                                                       std::size_t count) {
  CheckResult<command_of<S>, response_of<S>> result;
  run_range(spec, config, first, count, result);
  return result;
}

/// A usage error of an entry point, or "" (re-entry, then the config).
inline std::string entry_error(const CheckConfig& config) {
  if (core::inside_merilo()) return core::kReentryError;
  return config_error(config);
}

}  // namespace detail

template <class S>
requires Spec<std::remove_cvref_t<S>> CheckResult<command_t<S>, response_t<S>> check(
    S&& spec, const CheckConfig& config) {
  using Spec_ = std::remove_cvref_t<S>;
  if (std::string e = detail::entry_error(config); !e.empty()) {
    CheckResult<command_t<S>, response_t<S>> r;
    r.error = std::move(e);
    return r;
  }
  core::EntryGuard guard;
  const CheckConfig c = detail::clamped(config);
  return detail::check_range(std::make_shared<Spec_>(std::forward<S>(spec)), c, 0, c.test_count);
}

template <class S>
requires Spec<std::remove_cvref_t<S>> CheckResult<command_t<S>, response_t<S>> check_run(
    S&& spec, const CheckConfig& config, std::size_t run) {
  using Spec_ = std::remove_cvref_t<S>;
  if (std::string e = detail::entry_error(config); !e.empty()) {
    CheckResult<command_t<S>, response_t<S>> r;
    r.error = std::move(e);
    return r;
  }
  core::EntryGuard guard;
  const CheckConfig c = detail::clamped(config);
  return detail::check_range(std::make_shared<Spec_>(std::forward<S>(spec)), c, run, 1);
}

template <class S>
requires Spec<std::remove_cvref_t<S>> Generated<command_t<S>> generate_case(
    S&& spec, const CheckConfig& config, std::size_t run) {
  Generated<command_t<S>> out;
  if (std::string e = detail::entry_error(config); !e.empty()) {
    out.error = std::move(e);
    return out;
  }
  core::EntryGuard guard;
  const CheckConfig c = detail::clamped(config);
  std::remove_cvref_t<S> own(std::forward<S>(spec));
  auto drawn = detail::draw_case(own, c, run);
  out.drawn = std::move(drawn.c);
  out.crash = std::move(drawn.crash);
  return out;
}

}  // namespace merilo::parallel

#endif  // MERILO_PARALLEL_DETAIL_CHECK_INL_HPP
