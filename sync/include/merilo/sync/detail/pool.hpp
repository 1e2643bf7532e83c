// merilo/sync/detail/pool.hpp — OS threads kept between executions.
//
// `sync::model` runs its body many times, and each run starts the body's
// thread and every `sync::thread` it makes. Starting an OS thread costs
// tens of microseconds, more than a whole small execution; the pool keeps
// the threads of finished tasks and hands them the next ones.
//
// NOTE: a pooled thread keeps its `thread_local` variables from one task
// to the next (a fresh std::thread would not); code under test that relies
// on a fresh thread_local per thread sees the previous execution's values.
// A task that never returns (a thread parked for good in a cancelled run)
// keeps its thread for good.
#ifndef MERILO_SYNC_DETAIL_POOL_HPP
#define MERILO_SYNC_DETAIL_POOL_HPP

#include <atomic>              // Job::done_, read while spinning
#include <chrono>              // Job::wait_for
#include <condition_variable>  // Job's end
#include <functional>          // the task
#include <memory>              // std::shared_ptr<Job>
#include <mutex>               // Job's end

namespace merilo::sync::detail {

/// One task on a pooled thread: whether it has ended.
class Job {
 public:
  /// Waits until the task has returned.
  void wait();
  /// Waits until the task has returned or `timeout` has passed; true when
  /// it has returned.
  bool wait_for(std::chrono::milliseconds timeout);
  /// The task has returned (called by the pool).
  void finish() noexcept;

 private:
  std::atomic<bool> done_{false};
  std::mutex mu_;
  std::condition_variable cv_;
};

/// Runs `task` on an idle thread of the process's pool, or a new one.
[[nodiscard]] std::shared_ptr<Job> run_pooled(std::function<void()> task);

}  // namespace merilo::sync::detail

#endif  // MERILO_SYNC_DETAIL_POOL_HPP
