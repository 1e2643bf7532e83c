// merilo/parallel/detail/crew.hpp — the threads a check races branches on.
//
// A `Crew` runs one task per thread, releases them together through a
// spinning start barrier, and waits until all have finished or a deadline
// passes. Threads are kept between races (starting a thread costs more
// than a short race; bench/parallel measures it) unless built with
// `Threads::fresh`. A thread whose task is still running at the deadline is
// abandoned: detached, it finishes its task whenever that returns and then
// exits; the crew starts a new thread in its place.
//
// NOTE: tasks must not throw (the caller catches user exceptions inside
// them) and must own, through shared pointers, everything they touch: an
// abandoned task outlives the race and the crew.
#ifndef MERILO_PARALLEL_DETAIL_CREW_HPP
#define MERILO_PARALLEL_DETAIL_CREW_HPP

#include <chrono>      // the deadline
#include <cstddef>     // std::size_t
#include <cstdint>     // std::uint8_t
#include <functional>  // tasks
#include <memory>      // workers are shared with their threads
#include <vector>      // tasks, workers

namespace merilo::parallel::detail {

/// Which tasks of a race finished before the deadline.
struct RaceEnd {
  std::vector<bool> finished;  ///< One entry per task.
  /// Every task finished.
  [[nodiscard]] bool all() const noexcept {
    for (bool f : finished)
      if (!f) return false;
    return true;
  }
};

/// Watches a free race for a stall: no call returning and no racing thread
/// using CPU time, for `window` (a likely deadlock: threads blocked in the
/// kernel on each other). Sooner, after a tenth of `window`, when every
/// racing thread is blocked in a wait without a timeout (Linux: a futex wait,
/// which is how a std::mutex or an untimed condition-variable wait blocks),
/// read from /proc: none of them can end it by itself. Racing threads report
/// themselves; the checking thread asks `stalled()`.
class StallWatch {
 public:
  StallWatch(std::size_t threads, std::chrono::nanoseconds window);
  /// On racing thread `t`, before its first call: remembers its CPU clock
  /// and OS thread id. The thread counts as racing until `finished` or
  /// `between(t, true)`.
  void started(std::size_t t) noexcept;
  /// On racing thread `t`: whether it is between executions (waiting for
  /// the others at a barrier, not in a call), so its CPU time and waits are
  /// not the race's.
  void between(std::size_t t, bool idle) noexcept;
  /// On racing thread `t`: a call returned.
  void progressed() noexcept;
  /// On racing thread `t`: its branch is done.
  void finished(std::size_t t) noexcept;
  /// On the checking thread: whether nothing moved for the window.
  [[nodiscard]] bool stalled();

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

/// A set of threads for racing tasks (see the top of this file).
class Crew {
 public:
  /// Whether threads are kept between races.
  enum class Threads : std::uint8_t { reused, fresh };

  explicit Crew(Threads threads = Threads::reused);
  ~Crew();
  Crew(const Crew&) = delete;
  Crew& operator=(const Crew&) = delete;

  /// Runs `tasks[i]` on thread i, all released at once; returns when all
  /// finished or at `deadline`, whichever comes first
  /// (`time_point::max()` waits for all). A `give_up` predicate, polled
  /// every millisecond, ends the wait early (the tasks still running are
  /// abandoned as at the deadline).
  RaceEnd race(std::vector<std::function<void()>> tasks,
               std::chrono::steady_clock::time_point deadline,
               const std::function<bool()>& give_up = nullptr);

  /// Threads abandoned so far (their tasks missed a deadline).
  [[nodiscard]] std::size_t abandoned() const noexcept { return abandoned_; }

 private:
  struct Worker;
  std::shared_ptr<Worker> start_worker();
  void retire(const std::shared_ptr<Worker>& worker);

  Threads threads_;
  std::vector<std::shared_ptr<Worker>> workers_;
  std::size_t abandoned_ = 0;
};

}  // namespace merilo::parallel::detail

#endif  // MERILO_PARALLEL_DETAIL_CREW_HPP
