// controller.cpp — turns, decisions, blocking and deadlock detection of a
// controlled run (detail/controller.hpp).
#include <merilo/parallel/detail/controller.hpp>

#include <algorithm>  // std::find, std::min_element
#include <bit>        // std::popcount
#include <exception>  // std::uncaught_exceptions
#include <utility>

#include <fmt/core.h>

#include <merilo/parallel/sync.hpp>  // sync::Cancelled

namespace merilo::parallel::detail {

const char* name(SyncOp op) noexcept {
  switch (op) {
    case SyncOp::call:
      return "call";
    case SyncOp::load:
      return "atomic load";
    case SyncOp::store:
      return "atomic store";
    case SyncOp::rmw:
      return "atomic read-modify-write";
    case SyncOp::cas:
      return "atomic compare-exchange";
    case SyncOp::atomic_wait:
      return "atomic wait";
    case SyncOp::atomic_notify:
      return "atomic notify";
    case SyncOp::lock:
      return "mutex lock";
    case SyncOp::try_lock:
      return "mutex try_lock";
    case SyncOp::unlock:
      return "mutex unlock";
    case SyncOp::lock_shared:
      return "mutex lock_shared";
    case SyncOp::unlock_shared:
      return "mutex unlock_shared";
    case SyncOp::cv_wait:
      return "condition_variable wait";
    case SyncOp::cv_notify:
      return "condition_variable notify";
    case SyncOp::yield:
      return "yield";
  }
  return "?";
}

bool is_preemption(const Decision& d, std::uint8_t chosen) noexcept {
  return d.current != kNoThread && d.current_runnable && !d.yielded && chosen != d.current;
}

std::uint8_t default_choice(const Decision& d) noexcept {
  if (d.current != kNoThread && d.current_runnable && !d.yielded) return d.current;
  const unsigned start = d.current == kNoThread ? 0U : d.current + 1U;
  for (unsigned k = 0; k < kMaxControlledThreads; ++k) {
    const unsigned t = (start + k) % kMaxControlledThreads;
    if ((d.runnable >> t) & 1U) return static_cast<std::uint8_t>(t);
  }
  return d.current;  // unreachable: a decision has two runnable threads
}

// --- Chooser ---------------------------------------------------------------

Chooser::Chooser(std::vector<std::uint8_t> forced, Then then, std::uint64_t seed,
                 std::size_t threads, std::size_t depth, std::size_t length)
    : forced_(std::move(forced)), then_(then), rng_(seed) {
  if (then_ != Then::pct) return;
  // PCT: distinct initial priorities above every change-point priority
  // (depth - 1 of them), in a random order; change points at random
  // decisions in [0, length).
  const std::size_t changes = depth > 0 ? depth - 1 : 0;
  priority_.resize(threads);
  for (std::size_t t = 0; t < threads; ++t) priority_[t] = changes + 1 + t;
  for (std::size_t t = threads; t > 1; --t) {
    // below(t) < t, so it fits a size_t (32 bits on i386).
    std::swap(priority_[t - 1], priority_[static_cast<std::size_t>(rng_.below(t))]);
  }
  const std::size_t span = length > 0 ? length : 1;
  for (std::size_t k = 0; k < changes; ++k) {
    change_at_.push_back(static_cast<std::size_t>(rng_.below(span)));  // < span
  }
}

std::uint8_t Chooser::pick(const Decision& d, std::size_t index) {
  if (index < forced_.size()) {
    const std::uint8_t c = forced_[index];
    if (c < kMaxControlledThreads && ((d.runnable >> c) & 1U)) return c;
    diverged_ = true;
    return default_choice(d);
  }
  switch (then_) {
    case Then::defaults:
      return default_choice(d);
    case Then::random: {
      std::uint8_t mask = d.runnable;
      if (d.yielded && d.current != kNoThread) {
        const auto others = static_cast<std::uint8_t>(mask & ~(1U << d.current));
        if (others != 0) mask = others;
      }
      std::uint64_t k = rng_.below(static_cast<std::uint64_t>(std::popcount(mask)));
      for (unsigned t = 0; t < kMaxControlledThreads; ++t) {
        if (((mask >> t) & 1U) && k-- == 0) return static_cast<std::uint8_t>(t);
      }
      return default_choice(d);
    }
    case Then::pct: {
      if (d.current != kNoThread && d.current < priority_.size()) {
        // A change point, or a yield, drops the running thread below the others.
        for (std::size_t at : change_at_) {
          if (at == index) {
            priority_[d.current] = change_at_.size() - lowered_;
            ++lowered_;
          }
        }
        if (d.yielded) priority_[d.current] = 0;
      }
      std::uint8_t best = default_choice(d);
      for (unsigned t = 0; t < priority_.size(); ++t) {
        if (((d.runnable >> t) & 1U) && priority_[t] > priority_[best]) {
          best = static_cast<std::uint8_t>(t);
        }
      }
      if (d.yielded && best == d.current) {
        // Every other runnable thread has priority 0 too: let one of them go.
        for (unsigned t = 0; t < priority_.size(); ++t) {
          if (t != d.current && ((d.runnable >> t) & 1U)) return static_cast<std::uint8_t>(t);
        }
      }
      return best;
    }
  }
  return default_choice(d);
}

// --- Controller ------------------------------------------------------------

struct Controller::Thread {
  enum class State : std::uint8_t { absent, runnable, blocked, finished };
  State state = State::absent;
  const void* blocked_on = nullptr;
  SyncOp blocked_op = SyncOp::call;
  bool timed = false;
  bool timed_out = false;
  std::uint64_t seq = 0;
  std::vector<const void*> held;
};

Controller::Controller(std::size_t threads, Chooser chooser, std::size_t max_steps)
    : threads_(std::min(threads, kMaxControlledThreads)),
      chooser_(std::move(chooser)),
      max_steps_(max_steps) {}

Controller::~Controller() = default;

std::uint32_t Controller::object_id_locked(const void* object) {
  if (object == nullptr) return 0;
  auto it = std::find(objects_.begin(), objects_.end(), object);
  if (it == objects_.end()) {
    objects_.push_back(object);
    return static_cast<std::uint32_t>(objects_.size());
  }
  return static_cast<std::uint32_t>(it - objects_.begin()) + 1;
}

void Controller::end_locked(RunStatus status) {
  if (status_ == RunStatus::running) {
    status_ = status;
    if (status == RunStatus::deadlock) description_ = describe_blocked_locked();
    if (status == RunStatus::livelock) {
      description_ = fmt::format(
          "the run reached {} scheduling points without every branch finishing (a loop that "
          "waits for another thread without blocking or yielding? call "
          "merilo::sync::this_thread::yield() in it)",
          max_steps_);
    }
  }
  if (status == RunStatus::deadlock || status == RunStatus::livelock) {
    cancelled_ = true;
  } else {
    free_ = true;
  }
  running_ = kNoThread;
  cv_.notify_all();
}

void Controller::park_locked(std::unique_lock<std::mutex>& lock) {
  ++parked_;
  cv_.wait(lock, [&] { return free_.load(); });
  --parked_;
}

void Controller::decide_locked(std::unique_lock<std::mutex>& /*lock*/, std::uint8_t me, SyncOp op,
                               const void* object, bool yielded) {
  std::uint8_t mask = 0;
  for (std::size_t t = 0; t < threads_.size(); ++t) {
    if (threads_[t].state == Thread::State::runnable) mask |= static_cast<std::uint8_t>(1U << t);
  }
  if (mask == 0) {
    // Time passes only when nobody can run: the timed waiter that blocked
    // first times out.
    Thread* timed = nullptr;
    for (Thread& th : threads_) {
      if (th.state == Thread::State::blocked && th.timed && (!timed || th.seq < timed->seq)) {
        timed = &th;
      }
    }
    if (timed != nullptr) {
      timed->state = Thread::State::runnable;
      timed->timed_out = true;
      mask = static_cast<std::uint8_t>(1U << (timed - threads_.data()));
    } else {
      bool all_finished = true;
      for (const Thread& th : threads_)
        all_finished = all_finished && th.state == Thread::State::finished;
      end_locked(all_finished ? RunStatus::finished : RunStatus::deadlock);
      return;
    }
  }
  // Fairness: a thread that went on at kFairSteps decisions in a row while
  // others could run is switched away from as if it had yielded (a spin
  // loop without a yield would otherwise starve the thread it waits for).
  if (me != kNoThread && run_length_ >= kFairSteps) yielded = true;
  Decision d;
  d.runnable = mask;
  d.current = me;
  d.current_runnable = me != kNoThread && ((mask >> me) & 1U);
  d.yielded = yielded;
  d.at = clock_;
  d.op = op;
  d.object = object_id_locked(object);
  std::uint8_t chosen = 0;
  if (std::popcount(mask) == 1) {
    chosen = static_cast<std::uint8_t>(std::countr_zero(mask));
  } else {
    chosen = chooser_.pick(d, decisions_.size());
    d.chosen = chosen;
    decisions_.push_back(d);
    run_length_ = chosen == me ? run_length_ + 1 : 0;
  }
  running_ = chosen;
  if (chosen != me) cv_.notify_all();
}

namespace {

/// One spin-wait turn: a pause instruction where there is one.
inline void relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

}  // namespace

void Controller::wait_turn_locked(std::unique_lock<std::mutex>& lock, std::uint8_t me) {
  const auto my_turn = [&] {
    return running_.load(std::memory_order_acquire) == me ||
           free_.load(std::memory_order_acquire) || cancelled_.load(std::memory_order_acquire);
  };
  if (my_turn()) return;
  // Spin first, outside the lock; taking the lock again afterwards orders
  // everything the previous thread wrote before ours (the run stays
  // sequentially consistent). The condition variable catches a turn that
  // takes longer: the thread handing it over notifies under the lock.
  lock.unlock();
  for (unsigned spins = 0; spins < kHandOffSpins && !my_turn(); ++spins) relax();
  lock.lock();
  cv_.wait(lock, my_turn);
}

void Controller::enter(std::size_t t) {
  const auto me = static_cast<std::uint8_t>(t);
  hooked_threads.fetch_add(1, std::memory_order_relaxed);
  tls_hook = Hook{this, me};
  std::unique_lock lock(mu_);
  threads_[t].state = Thread::State::runnable;
  if (++arrived_ == threads_.size() && !free_ && !cancelled_) {
    decide_locked(lock, kNoThread, SyncOp::call, nullptr, false);
  }
  if (!free_ && !cancelled_) wait_turn_locked(lock, me);
}

void Controller::leave(std::size_t t) noexcept {
  tls_hook = Hook{};
  hooked_threads.fetch_sub(1, std::memory_order_relaxed);
  std::unique_lock lock(mu_);
  threads_[t].state = Thread::State::finished;
  ++left_;
  if (free_ || cancelled_) return;
  decide_locked(lock, static_cast<std::uint8_t>(t), SyncOp::call, nullptr, false);
}

bool Controller::point_locked(std::unique_lock<std::mutex>& lock, SyncOp op, const void* object) {
  if (free_) return false;
  if (cancelled_) return true;
  if (++steps_ > max_steps_) {
    end_locked(RunStatus::livelock);
    return true;
  }
  ++clock_;
  if (op != SyncOp::call) ++sync_points_;
  const std::uint8_t me = tls_hook.thread;
  decide_locked(lock, me, op, object, op == SyncOp::yield);
  if (!free_ && !cancelled_) wait_turn_locked(lock, me);
  return cancelled_ && !free_;
}

void Controller::point(SyncOp op, const void* object) noexcept {
  std::unique_lock lock(mu_);
  // A cancelled run parks the caller for good (it would spin again), unless
  // it is unwinding: then it goes on with the plain operation.
  if (point_locked(lock, op, object) && std::uncaught_exceptions() == 0) park_locked(lock);
}

void Controller::yield_point() {
  std::unique_lock lock(mu_);
  if (point_locked(lock, SyncOp::yield, nullptr) && std::uncaught_exceptions() == 0) {
    lock.unlock();
    throw sync::Cancelled{};
  }
}

bool Controller::block(SyncOp op, const void* object, bool timed, bool* timed_out) {
  std::unique_lock lock(mu_);
  if (free_) return false;
  const auto cancel = [&] {
    if (std::uncaught_exceptions() == 0) {
      lock.unlock();
      throw sync::Cancelled{};
    }
    return false;
  };
  if (cancelled_) return cancel();
  const std::uint8_t me = tls_hook.thread;
  Thread& th = threads_[me];
  if (++steps_ > max_steps_) {
    end_locked(RunStatus::livelock);
    return cancel();
  }
  ++clock_;
  ++sync_points_;
  th.state = Thread::State::blocked;
  th.blocked_on = object;
  th.blocked_op = op;
  th.timed = timed;
  th.timed_out = false;
  th.seq = ++block_seq_;
  decide_locked(lock, me, op, object, false);
  if (!free_ && !cancelled_) wait_turn_locked(lock, me);
  if (free_) return false;
  if (cancelled_) return cancel();
  if (timed_out != nullptr) *timed_out = th.timed_out;
  th.timed_out = false;
  th.blocked_on = nullptr;
  return true;
}

void Controller::wake(const void* object, bool all) noexcept {
  std::unique_lock lock(mu_);
  if (free_ || cancelled_) return;
  for (;;) {
    Thread* first = nullptr;
    for (Thread& th : threads_) {
      if (th.state == Thread::State::blocked && th.blocked_on == object &&
          (!first || th.seq < first->seq)) {
        first = &th;
      }
    }
    if (first == nullptr) return;
    first->state = Thread::State::runnable;
    first->blocked_on = nullptr;
    if (!all) return;
  }
}

void Controller::holds(const void* object, bool held) noexcept {
  std::unique_lock lock(mu_);
  if (free_ || cancelled_) return;
  std::vector<const void*>& h = threads_[tls_hook.thread].held;
  try {
    if (held) {
      h.push_back(object);
    } else if (auto it = std::find(h.begin(), h.end(), object); it != h.end()) {
      h.erase(it);
    }
  } catch (...) {  // NOLINT(bugprone-empty-catch): out of memory; only the deadlock text loses it
  }
}

std::int64_t Controller::tick() noexcept {
  std::unique_lock lock(mu_);
  return ++clock_;
}

void Controller::drop() noexcept {
  std::unique_lock lock(mu_);
  end_locked(RunStatus::dropped);
  free_ = true;  // a cancelled run's parked threads go on too
  cv_.notify_all();
}

bool Controller::stalled() const {
  std::unique_lock lock(mu_);
  return status_ == RunStatus::livelock && parked_ + left_ >= threads_.size();
}

RunStatus Controller::status() const {
  std::unique_lock lock(mu_);
  return status_;
}

std::vector<Decision> Controller::decisions() const {
  std::unique_lock lock(mu_);
  return decisions_;
}

std::string Controller::description() const {
  std::unique_lock lock(mu_);
  return description_;
}

std::uint8_t Controller::running() const {
  std::unique_lock lock(mu_);
  return running_;
}

std::size_t Controller::steps() const {
  std::unique_lock lock(mu_);
  return steps_;
}

std::size_t Controller::sync_points() const {
  std::unique_lock lock(mu_);
  return sync_points_;
}

bool Controller::diverged() const {
  std::unique_lock lock(mu_);
  return chooser_.diverged();
}

std::string Controller::describe_blocked_locked() const {
  const auto id = [&](const void* object) {
    auto it = std::find(objects_.begin(), objects_.end(), object);
    return it == objects_.end() ? std::size_t{0}
                                : static_cast<std::size_t>(it - objects_.begin()) + 1;
  };
  std::string out;
  for (std::size_t t = 0; t < threads_.size(); ++t) {
    const Thread& th = threads_[t];
    if (!out.empty()) out += "; ";
    switch (th.state) {
      case Thread::State::blocked: {
        out += fmt::format("branch {} waits in {} on object #{}", t, name(th.blocked_op),
                           id(th.blocked_on));
        for (std::size_t o = 0; o < threads_.size(); ++o) {
          const auto& h = threads_[o].held;
          if (o != t && std::find(h.begin(), h.end(), th.blocked_on) != h.end()) {
            out += fmt::format(", held by branch {}", o);
          }
        }
        break;
      }
      case Thread::State::finished:
        out += fmt::format("branch {} finished", t);
        break;
      case Thread::State::runnable:
      case Thread::State::absent:
        out += fmt::format("branch {} never started", t);
        break;
    }
    if (!th.held.empty() && th.state != Thread::State::finished) {
      out += ", holding";
      for (const void* h : th.held) out += fmt::format(" #{}", id(h));
    }
  }
  return out;
}

}  // namespace merilo::parallel::detail
