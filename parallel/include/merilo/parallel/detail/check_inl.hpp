// merilo/parallel/detail/check_inl.hpp — template bodies of parallel.hpp:
// the run loop (generate, repeat, then shrink) and the entry points.
#ifndef MERILO_PARALLEL_DETAIL_CHECK_INL_HPP
#define MERILO_PARALLEL_DETAIL_CHECK_INL_HPP

#include <algorithm>
#include <chrono>
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

/// Adds a passing or failing case's scheduling to the check's totals.
template <class Cmd, class Resp>
void note_schedules(CheckResult<Cmd, Resp>& result, const ScheduleStats& stats) {
  if (!is_controlled(stats.scheduler)) {
    ++result.free_cases;
    return;
  }
  result.schedules += stats.schedules;
  if (stats.scheduler != Scheduler::preemption_bounded) return;
  ++result.bounded_cases;
  const std::size_t proved = stats.rounds_done;  // rounds 0..proved-1 complete
  if (result.bounded_cases == 1 || proved < result.rounds_done) result.rounds_done = proved;
}

/// Runs `count` runs from `first` (config checked and clamped) into
/// `result`. A count, not an end, so that run SIZE_MAX is a run too.
template <class S>
void run_range(const std::shared_ptr<S>& spec, const CheckOptions& config, std::size_t first,
               std::size_t count, CheckResult<command_t<S>, response_t<S>>& result) {
  using Cmd = command_t<S>;
  using Resp = response_t<S>;
  Crew crew;
  const auto started = std::chrono::steady_clock::now();
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
      f.shrunk_check = case_check_of(f.shrunk);
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
      f.shrunk_check = case_check_of(f.shrunk);
      result.failure = std::move(f);
      return;
    }
    auto r = run_case(spec, crew, config, drawn.c, run, config.repeat, true,
                      [](const statem::Violation&) { return true; });
    f.executions += r.executions;
    result.executions += r.executions;
    note_schedules(result, r.stats);
    if (!r.failure) continue;
    if (!r.failure->usage_error.empty()) {  // the system cannot run under control
      result.error = std::move(r.failure->usage_error);
      return;
    }
    const Case<std::size_t> at = positions_of(drawn.c);
    take_evidence(f, std::move(*r.failure));
    take_case(f, std::move(r.stats), at);
    f.original_violation = f.violation;
    f.executions_to_failure = r.executions;
    f.ns_to_failure = std::chrono::duration_cast<std::chrono::nanoseconds>(
                          std::chrono::steady_clock::now() - started)
                          .count();
    const std::size_t before = f.executions;
    shrink(spec, crew, config, f, at);
    f.abandoned_threads = crew.abandoned();
    f.shrunk_check = case_check_of(f.shrunk);
    result.executions += f.executions - before;
    result.failure = std::move(f);
    return;
  }
}

template <class S>
CheckResult<command_t<S>, response_t<S>> check_range(std::shared_ptr<S> spec,
                                                     const CheckOptions& config, std::size_t first,
                                                     std::size_t count) {
  CheckResult<command_t<S>, response_t<S>> result;
  run_range(spec, config, first, count, result);
  return result;
}

/// A usage error of an entry point, or "" (re-entry, then the config).
inline std::string entry_error(const CheckOptions& config) {
  if (core::inside_merilo()) return core::kReentryError;
  return config_error(config);
}

}  // namespace detail

template <class S>
requires Spec<std::remove_cvref_t<S>> CheckResult<command_t<S>, response_t<S>> check(
    S&& spec, const CheckOptions& config) {
  using Spec_ = std::remove_cvref_t<S>;
  if (std::string e = detail::entry_error(config); !e.empty()) {
    CheckResult<command_t<S>, response_t<S>> r;
    r.error = std::move(e);
    return r;
  }
  core::EntryGuard guard;
  const CheckOptions c = detail::clamped(config);
  return detail::check_range(std::make_shared<Spec_>(std::forward<S>(spec)), c, 0, c.test_count);
}

template <class S>
requires Spec<std::remove_cvref_t<S>> CheckResult<command_t<S>, response_t<S>> check_run(
    S&& spec, const CheckOptions& config, std::size_t run) {
  using Spec_ = std::remove_cvref_t<S>;
  if (std::string e = detail::entry_error(config); !e.empty()) {
    CheckResult<command_t<S>, response_t<S>> r;
    r.error = std::move(e);
    return r;
  }
  core::EntryGuard guard;
  const CheckOptions c = detail::clamped(config);
  return detail::check_range(std::make_shared<Spec_>(std::forward<S>(spec)), c, run, 1);
}

template <class S>
requires Spec<std::remove_cvref_t<S>> Generated<command_t<S>> generate_case(
    S&& spec, const CheckOptions& config, std::size_t run) {
  Generated<command_t<S>> out;
  if (std::string e = detail::entry_error(config); !e.empty()) {
    out.error = std::move(e);
    return out;
  }
  core::EntryGuard guard;
  const CheckOptions c = detail::clamped(config);
  std::remove_cvref_t<S> own(std::forward<S>(spec));
  auto drawn = detail::draw_case(own, c, run);
  out.drawn = std::move(drawn.c);
  out.crash = std::move(drawn.crash);
  return out;
}

namespace detail {

/// `c`'s commands at `at` (positions in `c` flattened: prefix, then each
/// branch); false when a position is out of range.
template <class Cmd>
bool pick_case(const Case<Cmd>& c, const Pin& pin, Case<Cmd>& out) {
  std::vector<const Cmd*> flat;
  for (const Cmd& x : c.prefix) flat.push_back(&x);
  for (const auto& b : c.branches) {
    for (const Cmd& x : b) flat.push_back(&x);
  }
  const auto take = [&](const std::vector<std::size_t>& at, std::vector<Cmd>& into) {
    for (std::size_t p : at) {
      if (p >= flat.size()) return false;
      into.push_back(*flat[p]);
    }
    return true;
  };
  if (!take(pin.prefix_at, out.prefix)) return false;
  for (const auto& b : pin.branches_at) {
    out.branches.emplace_back();
    if (!take(b, out.branches.back())) return false;
  }
  return true;
}

}  // namespace detail

template <class S>
requires Spec<std::remove_cvref_t<S>> CheckResult<command_t<S>, response_t<S>> replay(
    S&& spec, std::string_view token, const CheckOptions& config) {
  using Spec_ = std::remove_cvref_t<S>;
  using Cmd = command_t<S>;
  CheckResult<command_t<S>, response_t<S>> result;
  detail::Pin pin;
  if (std::string e = detail::parse_pin(token, pin); !e.empty()) {
    result.error = std::move(e);
    return result;
  }
  CheckOptions c = config;
  c.seed = pin.seed;
  c.branches = pin.branches;
  c.max_prefix = pin.max_prefix;
  c.max_branch = pin.max_branch;
  if (std::string e = detail::entry_error(c); !e.empty()) {
    result.error = std::move(e);
    return result;
  }
  core::EntryGuard guard;
  c = detail::clamped(c);
  auto own = std::make_shared<Spec_>(std::forward<S>(spec));
  detail::Drawn<Cmd> drawn = detail::draw_case(*own, c, pin.run);
  Case<Cmd> pinned;
  if (drawn.crash || !detail::pick_case(drawn.c, pin, pinned) ||
      detail::pin_check(pin.body, detail::case_check_of(pinned)) != pin.check) {
    result.error = detail::pin_mismatch(token);
    return result;
  }
  result.runs = 1;
  detail::Crew crew;
  detail::CaseRun<Cmd, response_t<S>> r;
  if (pin.controlled) {
    // Under the controlled scheduler whatever the branch count: a case
    // shrunk to one branch (or to its prefix) still deadlocks or livelocks
    // as a verdict, not as a timeout on free threads.
    const detail::Chooser chooser(pin.schedule, detail::Chooser::Then::defaults, 0,
                                  pinned.branches.size(), 0, 0);
    auto o = detail::execute(own, crew, c, pinned, &chooser);
    r.executions = 1;
    r.stats.scheduler = Scheduler::preemption_bounded;
    r.stats.schedules = 1;
    if (!o.usage_error.empty()) {
      result.error = std::move(o.usage_error);
      return result;
    }
    if (o.violation) {
      r.stats.schedule = detail::schedule_of(o.decisions);
      r.stats.preemptions = detail::preemptions(o.decisions);
      r.stats.switches = detail::switches_of(o.decisions);
      r.failure = std::move(o);
    }
  } else {
    CheckOptions free = c;
    free.scheduler = Scheduler::os;
    r = detail::run_case(own, crew, free, pinned, pin.run,
                         std::max<std::size_t>(1, c.shrink_retries), false,
                         [](const statem::Violation&) { return true; });
  }
  result.executions = r.executions;
  result.schedules = is_controlled(r.stats.scheduler) ? r.executions : 0;
  if (!r.failure) return result;
  Failure<Cmd, response_t<S>> f;
  f.seed = pin.seed;
  f.run = pin.run;
  f.branches = c.branches;
  f.max_prefix = c.max_prefix;
  f.max_branch = c.max_branch;
  f.original = drawn.c;
  f.shrunk = pinned;
  f.executions = r.executions;
  f.shrunk_prefix_at = pin.prefix_at;
  f.shrunk_branches_at = pin.branches_at;
  f.shrunk_check = detail::case_check_of(pinned);
  detail::take_evidence(f, std::move(*r.failure));
  f.scheduling = std::move(r.stats);
  f.original_violation = f.violation;
  result.failure = std::move(f);
  return result;
}

}  // namespace merilo::parallel

#endif  // MERILO_PARALLEL_DETAIL_CHECK_INL_HPP
