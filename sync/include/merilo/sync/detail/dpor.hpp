// merilo/sync/detail/dpor.hpp — dynamic partial-order reduction: every
// Mazurkiewicz trace of a program, each explored from one execution.
//
// Two schedules that differ only in the order of independent steps
// (footprint.hpp) compute the same thing; running both is waste. `Dpor`
// runs one schedule per equivalence class (Mazurkiewicz trace), found as
// the program runs: after each execution it looks for pairs of dependent
// steps of different threads that follow each other directly in
// happens-before (a race), and schedules, at the state before the first
// step of the pair, a thread that starts a reordering in which the second
// goes first. This is source-DPOR (Abdulla, Aronis, Jonsson and Sagonas,
// POPL 2014) with sleep sets: a thread whose next step was explored at an
// earlier branch, and commutes with everything since, sleeps, so no trace
// is run twice to completion. A run that finds every enabled thread asleep
// has nothing new to show; it is cut short there and counted apart
// (`sleep_blocked`).
//
// The search is stateless: each execution starts the program afresh and
// replays a prefix of choices, as the other strategies do. It is online:
// the runtime asks `choose` at every step (also where one thread is
// enabled, because every step matters to the races), passing the enabled
// threads and every thread's pending step.
//
//   Dpor dpor(10'000);
//   while (dpor.begin()) {
//     // run the program; at each step:
//     //   t = dpor.choose(enabled, pending, preferred);
//     //   (and, where thread t's step has alternatives: v = dpor.choose_value(n))
//     dpor.end(pending_at_the_end);
//   }
//   // dpor.complete(): every trace was run.
//
// NOTE: a reduction is only as good as the footprints it is given. A step
// whose footprint claims less than the step does (a plain variable shared
// without a merilo::sync type, an object missing from the footprint) can
// hide a behaviour; a system that is not deterministic under a schedule
// is reported through `diverged()`.
#ifndef MERILO_SYNC_DETAIL_DPOR_HPP
#define MERILO_SYNC_DETAIL_DPOR_HPP

#include <cstddef>  // std::size_t
#include <cstdint>  // std::uint8_t, std::uint32_t
#include <span>     // the pending steps of every thread
#include <vector>   // the path

#include <merilo/sync/detail/footprint.hpp>  // Footprint, dependent

namespace merilo::sync::detail {

/// The pending step of every thread at one state, indexed by thread
/// (`Access::none`, or beyond the end: a thread that has finished or does
/// not exist). At most kMaxThreads entries.
using Pending = std::span<const Footprint>;

/// Source-DPOR with sleep sets over a deterministic program (see the top of
/// this file).
class Dpor {
 public:
  /// At most `max_executions` executions (each `begin` counts one).
  explicit Dpor(std::size_t max_executions);

  /// Starts the next execution; false when every trace has been explored
  /// or the budget is spent (`complete()` tells which).
  bool begin();
  /// The thread that takes the next step. `enabled` holds the threads that
  /// can take one (at least one bit), `pending` every thread's next step,
  /// `preferred` the thread the runtime would pick by default (it is taken
  /// where the reduction leaves a free choice, so the first execution is
  /// the runtime's default schedule).
  std::uint8_t choose(ThreadSet enabled, Pending pending, std::uint8_t preferred);
  /// Which of `count` alternatives the step just chosen takes (the store a
  /// load reads, the place a store takes in modification order: the
  /// memory model's choices). Every alternative is explored, each as a
  /// subtree of its own: the reduction prunes thread orders, never values.
  std::size_t choose_value(std::size_t count);
  /// The execution begun last has ended (every thread finished, or it
  /// stopped: a failure, a deadlock, a step budget). `left` holds the step
  /// each unfinished thread was about to take (`Access::none` for a
  /// finished one): a blocked lock races with the lock that took its mutex.
  void end(Pending left);

  /// Every trace was explored (false while exploring, or when the budget
  /// ran out first).
  [[nodiscard]] bool complete() const noexcept { return complete_; }
  /// Executions begun.
  [[nodiscard]] std::size_t executions() const noexcept { return executions_; }
  /// Executions cut short because every enabled thread slept: they add no
  /// trace.
  [[nodiscard]] std::size_t sleep_blocked() const noexcept { return sleep_blocked_; }
  /// Under a replayed prefix, a step was not the one recorded: the program
  /// is not deterministic under its schedule.
  [[nodiscard]] bool diverged() const noexcept { return diverged_; }
  /// The choices of the execution under way (or last ended), one per step.
  [[nodiscard]] std::vector<std::uint8_t> choices() const;

 private:
  struct Node {
    ThreadSet enabled{};
    ThreadSet backtrack{};     // threads to explore from this state
    ThreadSet done{};          // threads explored (or under way) from it
    ThreadSet sleep{};         // threads asleep on entry
    std::uint32_t at = 0;      // its pending steps: pending_[at, at + width)
    std::uint32_t width = 0;   // threads whose pending step is kept
    std::uint32_t values = 0;  // alternatives of the chosen step (0: not known yet)
    std::uint32_t value = 0;   // the alternative under way
    std::uint8_t chosen = 0;
  };

  /// Thread `t`'s pending step at state `i` (none beyond the node's width).
  [[nodiscard]] Footprint pending_at(std::size_t i, unsigned t) const noexcept {
    const Node& n = path_[i];
    return t < n.width ? pending_[n.at + t] : Footprint{};
  }
  [[nodiscard]] Footprint step_of(std::size_t i) const noexcept {
    return pending_at(i, path_[i].chosen);
  }

  void analyse_races(std::size_t from, Pending left);
  void add_backtrack(std::size_t at, unsigned thread, const std::uint32_t* clock,
                     const std::vector<std::size_t>& between);
  [[nodiscard]] const std::uint32_t* clock_at(std::size_t k) const noexcept {
    return clock_.data() + k * stride_;
  }

  std::size_t max_executions_;
  std::size_t executions_ = 0;
  std::size_t sleep_blocked_ = 0;
  bool complete_ = false;
  bool diverged_ = false;
  bool running_ = false;
  bool blocked_ = false;    // the execution under way is sleep-blocked
  std::size_t step_ = 0;    // steps taken in the execution under way
  std::size_t replay_ = 0;  // steps replayed from path_ before new ones
  std::vector<Node> path_;
  std::vector<Footprint> pending_;  // every node's pending steps, in path order
  std::vector<Footprint>
      blocked_pending_;  // the disabled threads' steps where the run was cut short
  // Race analysis scratch, kept between executions for its capacity: one
  // vector clock of `stride_` entries (the widest state's threads) per step.
  std::vector<std::uint32_t> clock_;
  std::size_t stride_ = 0;
};

}  // namespace merilo::sync::detail

#endif  // MERILO_SYNC_DETAIL_DPOR_HPP
