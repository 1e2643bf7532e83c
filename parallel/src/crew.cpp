// crew.cpp — the threads a check races branches on: a spinning start
// barrier, a deadline, and abandoning a thread that misses it.
#include <merilo/parallel/detail/crew.hpp>

#include <atomic>              // the start barrier
#include <condition_variable>  // idle workers, the finish wait
#include <memory>              // the idle flags
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include <cstdio>  // reading /proc

#include <pthread.h>  // the racing threads' CPU clocks
#include <time.h>     // clock_gettime
#if defined(__linux__)
#include <sys/syscall.h>  // SYS_gettid, SYS_futex
#include <unistd.h>       // syscall
#endif

#include <merilo/core/reentry.hpp>

namespace merilo::parallel::detail {

namespace {

/// Spins before yielding while waiting at the barrier: long enough that
/// threads on idle cores leave together, short enough not to starve a
/// thread that shares a core with a spinner.
constexpr int kSpinsBeforeYield = 1 << 12;

void spin_until(const std::atomic<bool>& flag) {
  for (int spins = 0; !flag.load(std::memory_order_acquire); ++spins) {
    if (spins >= kSpinsBeforeYield) std::this_thread::yield();
  }
}

/// One race: the start barrier and who has finished.
struct Race {
  explicit Race(std::size_t n) : finished(n, false) {}
  std::atomic<std::size_t> ready{0};
  std::atomic<bool> go{false};
  std::mutex mu;
  std::condition_variable cv;
  std::vector<bool> finished;  // guarded by mu
  std::size_t done = 0;        // guarded by mu
};

}  // namespace

struct Crew::Worker {
  std::mutex mu;
  std::condition_variable cv;
  std::function<void()> job;  // guarded by mu
  bool quit = false;          // guarded by mu
  std::thread thread;
};

Crew::Crew(Threads threads) : threads_(threads) {}

Crew::~Crew() {
  for (const std::shared_ptr<Worker>& w : workers_) retire(w);
}

std::shared_ptr<Crew::Worker> Crew::start_worker() {
  auto w = std::make_shared<Worker>();
  w->thread = std::thread([w] {
    core::EntryGuard guard;  // a task is user code: refuse re-entry from it
    std::unique_lock lock(w->mu);
    for (;;) {
      w->cv.wait(lock, [&] { return w->job != nullptr || w->quit; });
      if (w->job) {
        std::function<void()> job = std::move(w->job);
        w->job = nullptr;
        lock.unlock();
        job();
        job = nullptr;  // drop what the task owned before taking the lock again
        lock.lock();
        continue;
      }
      return;
    }
  });
  return w;
}

void Crew::retire(const std::shared_ptr<Worker>& w) {
  {
    std::lock_guard lock(w->mu);
    w->quit = true;
  }
  w->cv.notify_one();
  if (w->thread.joinable()) w->thread.join();
}

RaceEnd Crew::race(std::vector<std::function<void()>> tasks,
                   std::chrono::steady_clock::time_point deadline,
                   const std::function<bool()>& give_up) {
  const std::size_t n = tasks.size();
  while (workers_.size() < n) workers_.push_back(start_worker());
  auto race = std::make_shared<Race>(n);
  for (std::size_t i = 0; i < n; ++i) {
    Worker& w = *workers_[i];
    {
      std::lock_guard lock(w.mu);
      w.job = [race, i, n, task = std::move(tasks[i])]() mutable {
        // The last thread to arrive releases the others: the checking
        // thread never spins on a core the racing threads need.
        if (race->ready.fetch_add(1, std::memory_order_acq_rel) + 1 == n) {
          race->go.store(true, std::memory_order_release);
        } else {
          spin_until(race->go);
        }
        task();
        task = nullptr;  // release what the task owns before the race is seen as over
        {
          std::lock_guard done_lock(race->mu);
          race->finished[i] = true;
          ++race->done;
        }
        race->cv.notify_all();
      };
    }
    w.cv.notify_one();
  }

  RaceEnd end;
  {
    std::unique_lock lock(race->mu);
    const auto all_done = [&] { return race->done == n; };
    if (give_up) {
      // Poll: the predicate is the caller's, and nothing notifies on it.
      while (!all_done() && !give_up()) {
        const auto tick = std::chrono::steady_clock::now() + std::chrono::milliseconds(1);
        if (tick >= deadline) {
          race->cv.wait_until(lock, deadline, all_done);
          break;
        }
        race->cv.wait_until(lock, tick, all_done);
      }
    } else if (deadline == std::chrono::steady_clock::time_point::max()) {
      race->cv.wait(lock, all_done);  // no deadline: never hand the clock a time it cannot add to
    } else {
      race->cv.wait_until(lock, deadline, all_done);
    }
    end.finished = race->finished;
  }
  // Abandon the threads still running: detached, each finishes its task
  // (which owns what it touches) whenever that returns, then exits.
  for (std::size_t i = n; i-- > 0;) {
    if (end.finished[i]) continue;
    const std::shared_ptr<Worker> w = workers_[i];
    {
      std::lock_guard lock(w->mu);
      w->quit = true;
    }
    w->thread.detach();
    workers_.erase(workers_.begin() + static_cast<std::ptrdiff_t>(i));
    ++abandoned_;
  }
  if (threads_ == Threads::fresh) {
    for (const std::shared_ptr<Worker>& w : workers_) retire(w);
    workers_.clear();
  }
  return end;
}

namespace {

/// Whether OS thread `tid` of this process is blocked in a futex wait with
/// no timeout (/proc/self/task/TID/syscall): a wait only another thread can
/// end. False when /proc cannot say, and off Linux.
bool in_untimed_wait(long tid) {
#if defined(__linux__) && defined(SYS_futex)
  if (tid <= 0) return false;
  char path[64];
  std::snprintf(path, sizeof path, "/proc/self/task/%ld/syscall", tid);
  std::FILE* f = std::fopen(path, "re");
  if (f == nullptr) return false;
  long nr = -1;
  unsigned long addr = 0;
  unsigned long op = 0;
  unsigned long value = 0;
  unsigned long timeout = 0;
  const int got = std::fscanf(f, "%ld %lx %lx %lx %lx", &nr, &addr, &op, &value, &timeout);
  std::fclose(f);
  if (got != 5 || nr != SYS_futex || timeout != 0) return false;
  const unsigned long cmd = op & 0x7FU;  // without FUTEX_PRIVATE_FLAG, FUTEX_CLOCK_REALTIME
  return cmd == 0U /* FUTEX_WAIT */ || cmd == 9U /* FUTEX_WAIT_BITSET */ ||
         cmd == 6U /* FUTEX_LOCK_PI */ || cmd == 11U /* FUTEX_WAIT_REQUEUE_PI */;
#else
  (void)tid;
  return false;
#endif
}

long current_os_thread() noexcept {
#if defined(__linux__)
  return static_cast<long>(::syscall(SYS_gettid));
#else
  return 0;
#endif
}

}  // namespace

struct StallWatch::Impl {
  std::chrono::nanoseconds window;
  std::mutex mu;
  std::vector<clockid_t> clock;  // guarded by mu
  std::vector<long> tid;         // guarded by mu
  std::vector<bool> running;     // guarded by mu
  std::unique_ptr<std::atomic<bool>[]> idle;
  std::atomic<std::uint64_t> returns{0};
  // The checking thread's view.
  std::uint64_t seen_returns = 0;
  std::vector<std::int64_t> seen_cpu;
  std::chrono::steady_clock::time_point since = std::chrono::steady_clock::now();
  // Since when every racing thread was seen in an untimed wait, and their
  // CPU clocks then (empty: not all blocked at the last look).
  std::optional<std::chrono::steady_clock::time_point> blocked_since;
  std::vector<std::int64_t> blocked_cpu;
};

StallWatch::StallWatch(std::size_t threads, std::chrono::nanoseconds window)
    : impl_(std::make_shared<Impl>()) {
  impl_->window = window;
  impl_->clock.resize(threads);
  impl_->tid.assign(threads, 0);
  impl_->running.assign(threads, false);
  impl_->idle = std::make_unique<std::atomic<bool>[]>(threads);
  impl_->seen_cpu.assign(threads, -1);
  impl_->blocked_cpu.assign(threads, -1);
}

void StallWatch::started(std::size_t t) noexcept {
  clockid_t id{};
  const bool ok = pthread_getcpuclockid(pthread_self(), &id) == 0;
  const long tid = current_os_thread();
  std::lock_guard lock(impl_->mu);
  impl_->clock[t] = id;
  impl_->tid[t] = tid;
  impl_->running[t] = ok;
}

void StallWatch::between(std::size_t t, bool idle) noexcept {
  impl_->idle[t].store(idle, std::memory_order_relaxed);
}

void StallWatch::progressed() noexcept { impl_->returns.fetch_add(1, std::memory_order_relaxed); }

void StallWatch::finished(std::size_t t) noexcept {
  std::lock_guard lock(impl_->mu);
  impl_->running[t] = false;
}

bool StallWatch::stalled() {
  Impl& w = *impl_;
  const auto now = std::chrono::steady_clock::now();
  bool moved = false;
  const std::uint64_t returns = w.returns.load(std::memory_order_relaxed);
  const bool returned = returns != w.seen_returns;
  if (returned) {
    w.seen_returns = returns;
    moved = true;
  }
  bool any_running = false;
  bool all_waiting = true;  // every racing thread in an untimed wait
  bool cpu_still = true;    // none used CPU since they were all seen waiting
  {
    std::lock_guard lock(w.mu);
    for (std::size_t t = 0; t < w.clock.size(); ++t) {
      if (!w.running[t] || w.idle[t].load(std::memory_order_relaxed)) continue;
      any_running = true;
      timespec ts{};
      if (clock_gettime(w.clock[t], &ts) != 0) return false;  // the thread is gone
      const std::int64_t cpu = static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
      // A thread that used a millisecond of CPU since the last look is working.
      if (w.seen_cpu[t] < 0 || cpu - w.seen_cpu[t] > 1'000'000) {
        w.seen_cpu[t] = cpu;
        moved = true;
      }
      if (all_waiting && !in_untimed_wait(w.tid[t])) all_waiting = false;
      // A lock handed back and forth passes through waits, but uses CPU.
      if (w.blocked_since && (w.blocked_cpu[t] < 0 || cpu - w.blocked_cpu[t] > 100'000)) {
        cpu_still = false;
      }
      if (!w.blocked_since) w.blocked_cpu[t] = cpu;
    }
  }
  if (!any_running || returned || !all_waiting || !cpu_still) {
    w.blocked_since.reset();
  } else if (!w.blocked_since) {
    w.blocked_since = now;
  } else if (now - *w.blocked_since >= w.window / 10) {
    return true;  // blocked where only another thread could wake them
  }
  if (!any_running || moved) {
    w.since = now;
    return false;
  }
  return now - w.since >= w.window;
}

}  // namespace merilo::parallel::detail
