// merilo/parallel/detail/run_case_inl.hpp — running one case until it fails
// or passes: its schedules in order of preemption count, PCT or random
// draws, or free executions, as `CheckOptions::scheduler` says.
#ifndef MERILO_PARALLEL_DETAIL_RUN_CASE_INL_HPP
#define MERILO_PARALLEL_DETAIL_RUN_CASE_INL_HPP

#include <algorithm>  // std::max
#include <chrono>     // stress_time
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <merilo/core/hash.hpp>  // core::mix64 derives the random schedules' seeds
#include <merilo/parallel/detail/controlled.hpp>
#include <merilo/parallel/detail/crew.hpp>
#include <merilo/parallel/detail/execute_inl.hpp>
#include <merilo/parallel/detail/schedule_search.hpp>
#include <merilo/parallel/detail/stress_inl.hpp>
#include <merilo/parallel/failure.hpp>

namespace merilo::parallel::detail {

/// What running one case found.
template <class Cmd, class Resp>
struct CaseRun {
  /// The failing execution, if one failed as `accept` wanted.
  std::optional<Execution<Cmd, Resp>> failure;
  std::size_t executions = 0;  ///< Executions spent (each a schedule when controlled).
  ScheduleStats stats;         ///< How the case was scheduled.
};

/// The seed of the `k`-th random schedule of a case of run `run`.
inline std::uint64_t schedule_seed(std::uint64_t seed, std::size_t run, std::size_t k) noexcept {
  return core::mix64(core::mix64(seed ^ 0x5c4ed01eULL) ^ core::mix64(run) ^
                     (k * 0x9E3779B97F4A7C15ULL));
}

/// Stress executions of one case at most, whatever `stress_time` says.
inline constexpr std::size_t kMaxStressExecutions = 1'000'000;

/// A stress case's first batch; each next one is twice as long, up to
/// `kMaxStressBatch`.
inline constexpr std::size_t kFirstStressBatch = 8;

/// Shrinking under stress: a candidate runs its `free_runs` executions
/// (shrink_inl.hpp) of which a this-many-th part overlapped, or this many
/// times as many executions, or for twice `stress_time`.
inline constexpr std::size_t kStressOverlapSlack = 4;

/// Runs `c` until an execution fails as `accept(outcome)` says, or the
/// case passes: under control its schedules (the scheduler's order, at most
/// `config.schedules`); free `free_runs` times, and under stress (when
/// `timed`) on until `config.stress_time` has passed. `automatic` runs the
/// case under stress when its first (controlled) execution reached no
/// merilo::sync operation; that execution counts as the first free one.
template <class S, class Accept>
CaseRun<command_t<S>, response_t<S>> run_case(const std::shared_ptr<S>& spec, Crew& crew,
                                              const CheckOptions& config,
                                              const Case<command_t<S>>& c, std::size_t run,
                                              std::size_t free_runs, bool timed, Accept accept) {
  CaseRun<command_t<S>, response_t<S>> out;
  ScheduleStats& stats = out.stats;
  const auto take = [&](Execution<command_t<S>, response_t<S>>&& o) {
    ++out.executions;
    if (o.violation && accept(*o.violation)) {
      if (o.controlled) {
        stats.schedule = schedule_of(o.decisions);
        stats.preemptions = preemptions(o.decisions);
        stats.switches = switches_of(o.decisions);
      }
      out.failure = std::move(o);
      return true;
    }
    return false;
  };
  // Stress: batches of executions (stress_inl.hpp), until `free_runs`
  // executions whose branches overlapped in time ran (and, when `timed`,
  // `stress_time` passed), or a failure `accept` wants.
  const auto run_stress = [&](std::size_t from) {
    stats.scheduler = Scheduler::stress;
    const auto start = std::chrono::steady_clock::now();
    StressTuning tuning;
    std::size_t raced = from;  // the automatic scheduler's probe ran alone: count it
    std::size_t batch = kFirstStressBatch;
    for (std::size_t k = 0;; ++k) {
      const auto elapsed = std::chrono::steady_clock::now() - start;
      if (out.executions >= kMaxStressExecutions) return;
      if (timed) {
        // Enough overlapping executions and the time spent; or, when the
        // threads will not overlap (a loaded machine), twice the time.
        if (out.executions >= free_runs && elapsed >= config.stress_time &&
            (raced >= free_runs || elapsed >= 2 * config.stress_time)) {
          return;
        }
      } else if ((out.executions >= free_runs && kStressOverlapSlack * raced >= free_runs) ||
                 out.executions >= kStressOverlapSlack * free_runs ||
                 elapsed >= 2 * config.stress_time) {
        return;  // enough executions, a quarter of them raced; or out of time
      }
      // Counted runs (a shrink candidate's, or with no stress_time) take
      // no more executions than they still need.
      std::size_t size = batch;
      if ((!timed || config.stress_time.count() == 0) && out.executions < free_runs) {
        size = std::min(size, free_runs - out.executions);
      }
      auto r =
          stress_batch(spec, crew, config, c, size, schedule_seed(*config.seed, run, k), tuning);
      out.executions += r.executions;
      raced += r.raced;
      if (r.failure && r.failure->violation && accept(*r.failure->violation)) {
        out.failure = std::move(r.failure);
        return;
      }
      batch = std::min(batch * 2, kMaxStressBatch);
    }
  };
  const auto run_free = [&](std::size_t from, bool stress) {
    if (stress) {
      run_stress(from);
      return;
    }
    stats.scheduler = Scheduler::os;
    for (std::size_t k = from; k < free_runs; ++k) {
      if (take(execute(spec, crew, config, c))) return;
    }
  };
  if (config.scheduler == Scheduler::os || config.scheduler == Scheduler::stress) {
    run_free(0, config.scheduler == Scheduler::stress);
    return out;
  }
  if (config.scheduler == Scheduler::automatic ||
      config.scheduler == Scheduler::preemption_bounded) {
    stats.scheduler = Scheduler::preemption_bounded;
    ScheduleSearch search(config.preemption_bound, config.schedules);
    std::vector<std::uint8_t> forced;
    while (search.next(forced)) {
      const Chooser chooser(forced, Chooser::Then::defaults, 0, c.branches.size(), 0, 0);
      auto o = execute(spec, crew, config, c, &chooser);
      const bool probe = config.scheduler == Scheduler::automatic && search.schedules() == 1;
      const bool unsynchronised = o.controlled && o.sync_points == 0 && !o.left_alive;
      search.record(o.decisions);
      if (search.diverged() && !o.violation) {
        o.violation = statem::Violation{
            std::string(kNondeterministicTag),
            "the system reached other scheduling points under the same schedule: it depends on "
            "something merilo does not control (the clock, a plain thread, a random draw, state "
            "shared between systems)"};
        o.evidence = Evidence::unrecorded;
      }
      if (take(std::move(o))) break;
      if (probe && unsynchronised) {
        run_free(1, true);
        return out;
      }
    }
    stats.schedules = search.schedules();
    stats.per_round = search.per_round();
    stats.rounds_done = search.rounds_done();
    stats.budget_spent = search.budget_spent();
    return out;
  }
  // PCT or random: the k-th schedule's choices come from its own seed.
  stats.scheduler = config.scheduler;
  const Chooser::Then then =
      config.scheduler == Scheduler::pct ? Chooser::Then::pct : Chooser::Then::random;
  std::size_t length = 1;
  for (std::size_t k = 0; k < config.schedules; ++k) {
    const Chooser chooser({}, then, schedule_seed(*config.seed, run, k), c.branches.size(),
                          config.pct_depth, length);
    auto o = execute(spec, crew, config, c, &chooser);
    length = std::max(length, o.decisions.size());
    ++stats.schedules;
    if (take(std::move(o))) break;
  }
  return out;
}

}  // namespace merilo::parallel::detail

#endif  // MERILO_PARALLEL_DETAIL_RUN_CASE_INL_HPP
