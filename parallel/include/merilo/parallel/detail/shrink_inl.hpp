// merilo/parallel/detail/shrink_inl.hpp — the greedy shrinking loop: try
// each admissible candidate (shrink.hpp) up to `shrink_retries` times, keep
// the first that fails with the original tag, start again from it.
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
#include <merilo/parallel/failure.hpp>
#include <merilo/parallel/shrink.hpp>

namespace merilo::parallel::detail {

/// Copies what an execution found into `f`.
template <class Cmd, class Resp>
void take_evidence(Failure<Cmd, Resp>& f, Outcome<Cmd, Resp>&& o) {
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

/// Greedy shrinking of `f.shrunk` (which failed with `f.violation.tag`).
template <class S>
void shrink(const std::shared_ptr<S>& spec, Crew& crew, const CheckConfig& config,
            Failure<command_of<S>, response_of<S>>& f) {
  const std::string tag = f.violation.tag;
  const std::size_t attempts = std::max<std::size_t>(1, config.shrink_retries);
  std::size_t spent = 0;
  for (;;) {
    bool progress = false;
    for (Case<command_of<S>>& candidate : shrink_candidates(f.shrunk)) {
      if (!case_admissible(*spec, candidate)) continue;
      for (std::size_t a = 0; a < attempts; ++a) {
        if (spent >= config.max_shrinks) {
          f.end = statem::ShrinkEnd::bound_hit;
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
          f.end = statem::ShrinkEnd::bound_hit;
          return;
        }
        auto o = execute(spec, crew, config, candidate);
        ++spent;
        ++f.executions;
        f.system_left_alive = f.system_left_alive || o.left_alive;
        if (o.violation && o.violation->tag == tag) {
          f.shrunk = std::move(candidate);
          take_evidence(f, std::move(o));
          ++f.shrinks;
          progress = true;
          break;
        }
      }
      if (progress) break;
    }
    if (!progress) {
      f.end = statem::ShrinkEnd::converged;
      return;
    }
  }
}

}  // namespace merilo::parallel::detail

#endif  // MERILO_PARALLEL_DETAIL_SHRINK_INL_HPP
