// merilo/parallel/detail/schedule_search.hpp — the schedules of one case in
// order of preemption count, as CHESS's iterative preemption bounding does.
//
// Round k enumerates, depth first, every schedule with at most k
// preemptions (a preemption: switching away from a thread that could have
// gone on and did not yield). A schedule is given to an execution as a
// forced prefix of choices; past it every choice is the default (the
// running thread goes on), which adds no preemption, so a schedule's
// preemption count is its prefix's. Rounds run for k = 0, 1, ... up to the
// bound; the first failing schedule found therefore has the fewest
// preemptions of any failing schedule within the bound.
//
// The search is stateless, as CHESS's is: it learns the tree of decisions
// only by running executions, and each execution replays its prefix from a
// fresh system. A decision that differs from the recorded one under the
// same prefix means the system is not deterministic under the schedule.
#ifndef MERILO_PARALLEL_DETAIL_SCHEDULE_SEARCH_HPP
#define MERILO_PARALLEL_DETAIL_SCHEDULE_SEARCH_HPP

#include <cstddef>  // std::size_t
#include <cstdint>  // std::uint8_t
#include <vector>   // the path, per-round counts

#include <merilo/parallel/detail/controlled.hpp>  // Decision
#include <merilo/parallel/failure.hpp>            // Switch

namespace merilo::parallel::detail {

/// Iterative preemption bounding over one case (see the top of this file).
class ScheduleSearch {
 public:
  /// Rounds 0..`max_bound`, at most `max_schedules` executions in all.
  ScheduleSearch(std::size_t max_bound, std::size_t max_schedules);

  /// The forced choices of the next execution; false when every round is
  /// done or the budget is spent.
  bool next(std::vector<std::uint8_t>& forced);
  /// The decisions the execution `next` prepared made.
  void record(const std::vector<Decision>& decisions);

  /// The round under way (its preemption bound).
  [[nodiscard]] std::size_t bound() const noexcept { return bound_; }
  /// Rounds completed: when it is k > 0, every schedule with at most k - 1
  /// preemptions was run.
  [[nodiscard]] std::size_t rounds_done() const noexcept { return rounds_done_; }
  /// Executions so far.
  [[nodiscard]] std::size_t schedules() const noexcept { return schedules_; }
  /// Executions in each round (the last entry is the round under way).
  [[nodiscard]] const std::vector<std::size_t>& per_round() const noexcept { return per_round_; }
  /// The budget ran out before the last round completed.
  [[nodiscard]] bool budget_spent() const noexcept { return budget_spent_; }
  /// A recorded decision differed under the same forced prefix.
  [[nodiscard]] bool diverged() const noexcept { return diverged_; }

 private:
  struct Node {
    Decision decision;
    sync::detail::ThreadSet tried;  // choices taken or skipped here
    std::size_t preemptions = 0;    // before this decision
  };

  std::size_t max_bound_;
  std::size_t max_schedules_;
  std::size_t bound_ = 0;
  std::size_t rounds_done_ = 0;
  std::size_t schedules_ = 0;
  std::size_t forced_len_ = 0;
  bool started_ = false;
  bool budget_spent_ = false;
  bool diverged_ = false;
  std::vector<Node> path_;
  std::vector<std::size_t> per_round_;
};

/// The preemptions of a run that made `decisions`.
[[nodiscard]] std::size_t preemptions(const std::vector<Decision>& decisions) noexcept;
/// The shortest forced prefix that makes `decisions` again: the choices,
/// without the trailing ones that equal the default.
[[nodiscard]] std::vector<std::uint8_t> schedule_of(const std::vector<Decision>& decisions);
/// The changes of branch in a run that made `decisions`.
[[nodiscard]] std::vector<Switch> switches_of(const std::vector<Decision>& decisions);

}  // namespace merilo::parallel::detail

#endif  // MERILO_PARALLEL_DETAIL_SCHEDULE_SEARCH_HPP
