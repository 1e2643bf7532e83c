// pool.cpp — OS threads kept between sync::model executions (detail/pool.hpp).
#include <merilo/sync/detail/pool.hpp>

#include <thread>   // the workers
#include <utility>  // std::move
#include <vector>   // the idle workers

namespace merilo::sync::detail {

namespace {

/// Spins before a waiter sleeps: a task that ends within this many polls
/// is waited for without a system call on either side.
constexpr unsigned kSpins = 2000;

/// One pooled thread and the task handed to it.
struct Worker {
  std::mutex mu;
  std::condition_variable cv;
  std::function<void()> task;
  std::shared_ptr<Job> job;
  bool has_task = false;
};

/// The idle workers. Never destroyed: a worker may still be running a task
/// while the process exits.
std::mutex& idle_mu() {
  static auto* mu = new std::mutex;  // NOLINT(cppcoreguidelines-owning-memory)
  return *mu;
}
std::vector<Worker*>& idle() {
  static auto* workers = new std::vector<Worker*>;  // NOLINT(cppcoreguidelines-owning-memory)
  return *workers;
}

void work(Worker* w) {
  for (;;) {
    std::function<void()> task;
    std::shared_ptr<Job> job;
    {
      std::unique_lock lock(w->mu);
      w->cv.wait(lock, [&] { return w->has_task; });
      task = std::move(w->task);
      job = std::move(w->job);
      w->has_task = false;
    }
    task();
    task = nullptr;  // the task's captures go before anyone is told it ended
    {
      const std::lock_guard lock(idle_mu());
      idle().push_back(w);
    }
    job->finish();
  }
}

}  // namespace

void Job::wait() {
  for (unsigned i = 0; i < kSpins; ++i) {
    if (done_.load(std::memory_order_acquire)) return;
    std::this_thread::yield();
  }
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return done_.load(std::memory_order_acquire); });
}

bool Job::wait_for(std::chrono::milliseconds timeout) {
  for (unsigned i = 0; i < kSpins; ++i) {
    if (done_.load(std::memory_order_acquire)) return true;
    std::this_thread::yield();
  }
  std::unique_lock lock(mu_);
  return cv_.wait_for(lock, timeout, [&] { return done_.load(std::memory_order_acquire); });
}

void Job::finish() noexcept {
  {
    const std::lock_guard lock(mu_);
    done_.store(true, std::memory_order_release);
  }
  cv_.notify_all();
}

std::shared_ptr<Job> run_pooled(std::function<void()> task) {
  auto job = std::make_shared<Job>();
  Worker* w = nullptr;
  {
    const std::lock_guard lock(idle_mu());
    if (!idle().empty()) {
      w = idle().back();
      idle().pop_back();
    }
  }
  if (w == nullptr) {
    w = new Worker;  // NOLINT(cppcoreguidelines-owning-memory): lives as long as its thread
    std::thread(work, w).detach();
  }
  {
    const std::lock_guard lock(w->mu);
    w->task = std::move(task);
    w->job = job;
    w->has_task = true;
  }
  w->cv.notify_one();
  return job;
}

}  // namespace merilo::sync::detail
