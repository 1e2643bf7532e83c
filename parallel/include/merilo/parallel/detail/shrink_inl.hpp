// merilo/parallel/detail/shrink_inl.hpp — the greedy shrinking loop: run
// each admissible candidate (shrink.hpp) as a case (its schedules under
// control; up to `shrink_retries` free executions otherwise), keep the
// first that fails with the original tag, start again from it. The shrunk
// case's commands are tracked as positions in the original, for the pin.
#ifndef MERILO_PARALLEL_DETAIL_SHRINK_INL_HPP
#define MERILO_PARALLEL_DETAIL_SHRINK_INL_HPP

#include <algorithm>  // std::max
#include <cstddef>
#include <memory>
#include <string>
#include <utility>

#include <merilo/parallel/detail/crew.hpp>
#include <merilo/parallel/detail/execute_inl.hpp>
#include <merilo/parallel/detail/generate_inl.hpp>
#include <merilo/parallel/detail/run_case_inl.hpp>
#include <merilo/parallel/failure.hpp>
#include <merilo/parallel/shrink.hpp>

namespace merilo::parallel::detail {

/// Copies what an execution found into `f`.
template <class Cmd, class Resp>
void take_evidence(Failure<Cmd, Resp>& f, Execution<Cmd, Resp>&& o) {
  f.violation = std::move(*o.violation);
  f.evidence = o.evidence;
  f.prefix_step = o.prefix_step;
  f.explanation = std::move(o.explanation);
  f.placed = std::move(o.placed);
  f.stuck = std::move(o.stuck);
  f.unfinished = std::move(o.unfinished);
  f.system_left_alive = f.system_left_alive || o.left_alive;
  f.prefix_responses = std::move(o.prefix_responses);
  f.histories = std::move(o.histories);
}

/// Where each command of `c` stands in it: the prefix first, then each
/// branch in turn, numbered from 0.
template <class Cmd>
Case<std::size_t> positions_of(const Case<Cmd>& c) {
  Case<std::size_t> at;
  std::size_t k = 0;
  for (std::size_t i = 0; i < c.prefix.size(); ++i) at.prefix.push_back(k++);
  for (const auto& b : c.branches) {
    at.branches.emplace_back();
    for (std::size_t i = 0; i < b.size(); ++i) at.branches.back().push_back(k++);
  }
  return at;
}

/// Records the schedule statistics and positions of the accepted case.
template <class Cmd, class Resp>
void take_case(Failure<Cmd, Resp>& f, ScheduleStats&& stats, const Case<std::size_t>& at) {
  f.scheduling = std::move(stats);
  f.shrunk_prefix_at = at.prefix;
  f.shrunk_branches_at = at.branches;
}

/// The configuration a shrink candidate runs under. A case that failed
/// under a bounded schedule search with p preemptions has its candidates
/// searched to bound p only: a smaller case that fails only with more
/// preemptions is not simpler, and the rounds above p are where nearly all
/// of a passing candidate's schedules are (docs/design/controlled-scheduling.md).
/// The price: a case whose every one-call deletion fails only with more
/// preemptions is where the shrink stops, though a case two deletions
/// away may fail with as few; shrink.hpp's neighbouring-pair deletions
/// reach the common such cases (a push and the pop after it).
inline CheckOptions candidate_config(const CheckOptions& config, const ScheduleStats& failed) {
  CheckOptions out = config;
  if (failed.scheduler == Scheduler::preemption_bounded) {
    out.preemption_bound = std::min(config.preemption_bound, failed.preemptions);
  }
  return out;
}

/// Greedy shrinking of `f.shrunk` (which failed with `f.violation.tag`);
/// `at` holds its commands' positions in `f.original`.
template <class S>
void shrink(const std::shared_ptr<S>& spec, Crew& crew, const CheckOptions& config,
            Failure<command_t<S>, response_t<S>>& f, Case<std::size_t> at) {
  const std::string tag = f.violation.tag;
  // Free threads: a failure that took E executions to appear gets 3E
  // attempts per candidate (at least shrink_retries) under stress: a
  // candidate that fails as often as the original then shows it with
  // probability 1 - e^-3 = 95% (and a smaller case usually fails more often).
  // E is one draw, though, and often a lucky one: a case failing once in 50
  // executions shows its first failure within 5 about one time in ten, and
  // 15 attempts then find a candidate as racy with probability 26%. So a
  // failure that was not immediate (E > 1: a race, not a deterministic bug)
  // gives each candidate at least kStressShrinkFloor attempts: a stress
  // execution costs microseconds, so a candidate that never fails costs a
  // few milliseconds more, and one that fails once in 50 is found with
  // probability 99.4%.
  constexpr std::size_t kStressShrinkFloor = 256;
  std::size_t attempts = std::max<std::size_t>(1, config.shrink_retries);
  if (f.scheduling.scheduler == Scheduler::stress) {
    std::size_t want = 3 * f.executions_to_failure;
    if (f.executions_to_failure > 1) want = std::max(want, kStressShrinkFloor);
    attempts = std::max(attempts, std::min<std::size_t>(want, 20'000));
  }
  const auto same_tag = [&](const statem::Violation& v) { return v.tag == tag; };
  std::size_t spent = 0;
  for (;;) {
    bool progress = false;
    std::vector<Case<command_t<S>>> candidates = shrink_candidates(f.shrunk);
    std::vector<Case<std::size_t>> places = shrink_candidates(at);
    for (std::size_t i = 0; i < candidates.size() && !progress; ++i) {
      Case<command_t<S>>& candidate = candidates[i];
      if (!case_admissible(*spec, candidate)) continue;
      if (spent >= config.max_shrinks || crew.abandoned() >= kMaxAbandonedThreads) {
        f.end = ShrinkEnd::bound_hit;
        return;
      }
      statem::ShrinkStop answer = statem::ShrinkStop::keep_shrinking;
      if (config.shrink_stop) {
        try {
          answer = config.shrink_stop();
        } catch (...) {
          answer = statem::ShrinkStop::stop_shrinking;
        }
      }
      if (answer == statem::ShrinkStop::stop_shrinking) {
        f.end = ShrinkEnd::bound_hit;
        return;
      }
      // Free executions count one by one against max_shrinks; a controlled
      // candidate's schedule search counts as one.
      const std::size_t free_runs = std::min(attempts, config.max_shrinks - spent);
      auto r = run_case(spec, crew, candidate_config(config, f.scheduling), candidate, f.run,
                        free_runs, false, same_tag);
      spent += r.stats.scheduler == Scheduler::os ? r.executions : 1;  // stress: per candidate
      f.executions += r.executions;
      if (r.failure) {
        f.system_left_alive = f.system_left_alive || r.failure->left_alive;
        f.shrunk = std::move(candidate);
        at = std::move(places[i]);
        take_evidence(f, std::move(*r.failure));
        take_case(f, std::move(r.stats), at);
        ++f.shrinks;
        progress = true;
      }
    }
    if (!progress) {
      const bool free = !is_controlled(f.scheduling.scheduler);
      f.end =
          free && f.executions_to_failure > 1 ? ShrinkEnd::out_of_retries : ShrinkEnd::converged;
      return;
    }
  }
}

}  // namespace merilo::parallel::detail

#endif  // MERILO_PARALLEL_DETAIL_SHRINK_INL_HPP
