// controller.cpp — turns, decisions, blocking and deadlock detection of a
// controlled run (detail/controller.hpp).
#include <merilo/sync/detail/controller.hpp>

#include <algorithm>   // std::find, std::min_element
#include <cstdint>     // std::uintptr_t
#include <cstdio>      // reading /proc
#include <exception>   // std::uncaught_exceptions
#include <functional>  // std::hash of a thread id (not Linux)
#include <thread>      // std::this_thread::get_id (not Linux)
#include <utility>

#if defined(__linux__)
#include <fcntl.h>        // open /proc/self/mem
#include <sys/syscall.h>  // SYS_gettid, SYS_futex
#include <unistd.h>       // syscall, pread, close
#endif
#if defined(__linux__) && defined(__GLIBC__)
#include <linux/futex.h>  // FUTEX_WAIT, FUTEX_WAIT_BITSET
#include <pthread.h>      // pthread_mutex_t's owner
#endif

#include <fmt/core.h>

#include <merilo/core/hash.hpp>                 // the random and PCT choices' stream
#include <merilo/sync/detail/memory_model.hpp>  // MemoryModel

#include <merilo/sync/sync.hpp>  // sync::Cancelled

namespace merilo::sync::detail {

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
    case SyncOp::fence:
      return "atomic_thread_fence";
    case SyncOp::spawn:
      return "thread start";
    case SyncOp::start:
      return "first step";
    case SyncOp::finish:
      return "thread end";
    case SyncOp::join:
      return "thread join";
  }
  return "?";
}

Footprint footprint_of(SyncOp op, std::uint32_t object, bool sc) noexcept {
  Access a = Access::none;
  switch (op) {
    case SyncOp::load:
    case SyncOp::atomic_wait:
      a = Access::read;
      break;
    case SyncOp::store:
    case SyncOp::rmw:
    case SyncOp::cas:
      a = Access::write;
      break;
    case SyncOp::atomic_notify:
    case SyncOp::cv_notify:
      a = Access::notify;
      break;
    case SyncOp::lock:
    case SyncOp::start:  // acquires what the spawn released
    case SyncOp::join:   // acquires what the thread's end released
      a = Access::lock;
      break;
    case SyncOp::try_lock:
      a = Access::try_lock;
      break;
    case SyncOp::unlock:
    case SyncOp::spawn:
    case SyncOp::finish:
      a = Access::unlock;
      break;
    case SyncOp::lock_shared:
      a = Access::lock_shared;
      break;
    case SyncOp::unlock_shared:
      a = Access::unlock_shared;
      break;
    case SyncOp::call:     // a call boundary orders the history
    case SyncOp::cv_wait:  // releases its mutex, then waits: both
      a = Access::global;
      break;
    case SyncOp::fence:  // only a seq_cst fence is seen by other threads
      a = sc ? Access::global : Access::none;
      break;
    case SyncOp::yield:
      a = Access::none;
      break;
  }
  Footprint f;
  f.access = a;
  f.object = a == Access::none || a == Access::global ? 0 : object;
  f.sc = sc && a != Access::none;
  return f;
}

bool is_preemption(const Decision& d, std::uint8_t chosen) noexcept {
  return d.current != kNoThread && d.current_runnable && !d.yielded && chosen != d.current;
}

std::uint8_t default_choice(const Decision& d) noexcept {
  if (d.current != kNoThread && d.current_runnable && !d.yielded) return d.current;
  const unsigned start = d.current == kNoThread ? 0U : d.current + 1U;
  const unsigned t = d.runnable.next_from(start);
  // kMaxThreads is unreachable: a decision has two runnable threads.
  return t < kMaxControlledThreads ? static_cast<std::uint8_t>(t) : d.current;
}

// --- Chooser ---------------------------------------------------------------

namespace {

/// The next value of the SplitMix64 stream whose state is `state`, below
/// `bound` (as core::SplitMix64::below draws it).
std::uint64_t draw_below(std::uint64_t& state, std::uint64_t bound) noexcept {
  state += core::kSplitMixGamma;
  return core::splitmix_finaliser(state) % bound;
}

}  // namespace

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
    std::swap(priority_[t - 1], priority_[static_cast<std::size_t>(draw_below(rng_, t))]);
  }
  const std::size_t span = length > 0 ? length : 1;
  for (std::size_t k = 0; k < changes; ++k) {
    change_at_.push_back(static_cast<std::size_t>(draw_below(rng_, span)));  // < span
  }
}

std::uint8_t Chooser::pick(const Decision& d, std::size_t index) {
  if (index < forced_.size()) {
    const std::uint8_t c = forced_[index];
    if (d.runnable.contains(c)) return c;
    diverged_ = true;
    return default_choice(d);
  }
  switch (then_) {
    case Then::defaults:
      return default_choice(d);
    case Then::random: {
      ThreadSet mask = d.runnable;
      if (d.yielded && d.current != kNoThread) {
        ThreadSet others = mask;
        others.erase(d.current);
        if (!others.empty()) mask = others;
      }
      const auto k = static_cast<unsigned>(draw_below(rng_, mask.count()));
      const unsigned t = mask.nth(k);
      return t < kMaxControlledThreads ? static_cast<std::uint8_t>(t) : default_choice(d);
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
        if (d.runnable.contains(t) && priority_[t] > priority_[best]) {
          best = static_cast<std::uint8_t>(t);
        }
      }
      if (d.yielded && best == d.current) {
        // Every other runnable thread has priority 0 too: let one of them go.
        for (unsigned t = 0; t < priority_.size(); ++t) {
          if (t != d.current && d.runnable.contains(t)) return static_cast<std::uint8_t>(t);
        }
      }
      return best;
    }
  }
  return default_choice(d);
}

// --- Controller ------------------------------------------------------------

namespace {

/// The calling thread's id in the OS (its tid on Linux), for reports and
/// for matching a lock's owner.
long os_thread_id() noexcept {
#if defined(__linux__)
  return static_cast<long>(::syscall(SYS_gettid));
#else
  return static_cast<long>(std::hash<std::thread::id>{}(std::this_thread::get_id()) >> 1U);
#endif
}

/// Every controller alive in the process, for `note_uncontrolled`. Locked
/// before a controller's own mutex, never after it. Never destroyed: an
/// abandoned thread may drop its controller while the process exits.
std::mutex& registry_mu() {
  static auto* mu = new std::mutex;  // NOLINT(cppcoreguidelines-owning-memory)
  return *mu;
}
std::vector<Controller*>& registry() {
  static auto* controllers =
      new std::vector<Controller*>;  // NOLINT(cppcoreguidelines-owning-memory)
  return *controllers;
}

/// Operations of outside threads a run remembers, on objects no branch has
/// used yet (beyond it they are not remembered).
constexpr std::size_t kMaxPending = 64;

/// The usage error of an operation from a thread outside the run.
std::string uncontrolled_text(SyncOp op, std::uint32_t object, long os_thread) {
  return fmt::format(
      "merilo::parallel: {} on object #{} from a thread merilo does not control (OS thread {}, "
      "not a branch of the run) while the branches ran under the controlled scheduler. Only the "
      "branches' own threads are scheduled: an operation from any other thread (a std::thread "
      "or std::async started in run(), a worker thread of the system) is neither scheduled nor "
      "replayed, and can hang the run. Start no thread in run() that touches merilo::sync "
      "objects, or check this system with CheckOptions::scheduler = Scheduler::stress",
      name(op), object, os_thread);
}

}  // namespace

void note_uncontrolled(SyncOp op, const void* object) noexcept {
  const long me = os_thread_id();
  const std::lock_guard lock(registry_mu());
  for (Controller* c : registry()) c->uncontrolled(op, object, me);
}

struct Controller::Thread {
  enum class State : std::uint8_t { absent, runnable, blocked, finished };
  State state = State::absent;
  // The step it takes when chosen (sync::model runs): its op and object.
  SyncOp pending_op = SyncOp::call;
  const void* pending_object = nullptr;
  Footprint pending{};
  const void* finish_token = nullptr;  // its end, which a join waits for
  bool parked = false;                 // parked for good in a cancelled run
  const void* blocked_on = nullptr;
  SyncOp blocked_op = SyncOp::call;
  bool timed = false;
  bool timed_out = false;
  // Waiting for another thread without blocking: it yielded, and reached
  // only loads since (see decide_locked: time passes when every runnable
  // thread is idle).
  bool idle = false;
  long os_thread = 0;
  std::uint64_t seq = 0;
  std::vector<const void*> held;
};

namespace {

/// Counts `c` among the active runs and adds it to the registry
/// (`note_uncontrolled` looks there); undone if that fails.
void enlist(Controller* c) {
  active_runs.fetch_add(1, std::memory_order_relaxed);
  const std::lock_guard lock(registry_mu());
  try {
    registry().push_back(c);
  } catch (...) {
    active_runs.fetch_sub(1, std::memory_order_relaxed);
    throw;
  }
}

}  // namespace

Controller::Controller(std::size_t threads, Chooser chooser, std::size_t max_steps)
    : threads_(std::min(threads, kMaxControlledThreads)),
      chooser_(std::move(chooser)),
      max_steps_(max_steps) {
  enlist(this);
}

Controller::Controller(Strategy& strategy, MemoryModel* memory, std::size_t max_steps)
    : max_steps_(max_steps), strategy_(&strategy), memory_(memory), dynamic_(true) {
  // Spawned threads are added while others hold references into threads_.
  threads_.reserve(kMaxControlledThreads);
  threads_.emplace_back();
  threads_.front().pending_op = SyncOp::start;  // the body's first step
  if (memory_ != nullptr) memory_->reset();
  enlist(this);
}

Controller::~Controller() {
  {
    const std::lock_guard lock(registry_mu());
    auto& r = registry();
    r.erase(std::remove(r.begin(), r.end(), this), r.end());
  }
  const std::lock_guard lock(mu_);
  if (counted_) active_runs.fetch_sub(1, std::memory_order_relaxed);
  counted_ = false;
}

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
  if (counted_) {
    counted_ = false;
    active_runs.fetch_sub(1, std::memory_order_relaxed);
  }
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
  for (std::condition_variable& turn : turns_) turn.notify_all();
}

void Controller::park_locked(std::unique_lock<std::mutex>& lock) {
  ++parked_;
  const std::uint8_t me = tls_hook.thread;
  const bool mine = tls_hook.controller == this && me < threads_.size();
  if (mine) threads_[me].parked = true;
  cv_.notify_all();  // a joiner waits for this thread to leave or park
  cv_.wait(lock, [&] { return free_.load(); });
  if (mine) threads_[me].parked = false;
  --parked_;
}

bool Controller::wait_gone(std::uint8_t t) {
  std::unique_lock lock(mu_);
  if (t >= threads_.size()) return true;
  cv_.wait(lock, [&] {
    return threads_[t].state == Thread::State::finished || threads_[t].parked || free_.load();
  });
  return threads_[t].state == Thread::State::finished || free_.load();
}

bool Controller::enabled_locked(std::size_t t) const {
  const Thread& th = threads_[t];
  if (th.state != Thread::State::runnable) return false;
  if (!dynamic_) return true;
  if (th.pending_op == SyncOp::lock) {
    for (std::size_t o = 0; o < threads_.size(); ++o) {
      const auto& h = threads_[o].held;
      if (o != t && std::find(h.begin(), h.end(), th.pending_object) != h.end()) return false;
    }
  }
  if (th.pending_op == SyncOp::join) {
    for (const Thread& child : threads_) {
      if (child.finish_token == th.pending_object) return child.state == Thread::State::finished;
    }
  }
  return true;
}

void Controller::decide_locked(std::unique_lock<std::mutex>& /*lock*/, std::uint8_t me, SyncOp op,
                               const void* object, bool yielded, bool sc) {
  if (dynamic_ && me != kNoThread && threads_[me].state != Thread::State::finished) {
    Thread& th = threads_[me];
    th.pending_op = op;
    th.pending_object = object;
    th.pending = footprint_of(op, object_id_locked(object), sc);
  }
  ThreadSet mask;
  for (std::size_t t = 0; t < threads_.size(); ++t) {
    if (enabled_locked(t)) mask.insert(static_cast<unsigned>(t));
  }
  if (mask.empty()) {
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
      mask = ThreadSet::of(static_cast<unsigned>(timed - threads_.data()));
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
  if (me != kNoThread && me < threads_.size()) {
    Thread& cur = threads_[me];
    if (yielded) {
      cur.idle = true;
    } else if (op != SyncOp::load) {
      cur.idle = false;
    }
  }
  if (yielded) {
    // Time passes when every thread that can run only waits for another
    // (it yields, and has only read since): the timed waiter that blocked
    // first times out, as it would while they spin on a real machine.
    bool all_idle = true;
    Thread* timed = nullptr;
    for (Thread& th : threads_) {
      if (th.state == Thread::State::runnable) all_idle = all_idle && th.idle;
      if (th.state == Thread::State::blocked && th.timed && (!timed || th.seq < timed->seq)) {
        timed = &th;
      }
    }
    if (all_idle && timed != nullptr) {
      timed->state = Thread::State::runnable;
      timed->timed_out = true;
      timed->idle = false;
      mask.insert(static_cast<unsigned>(timed - threads_.data()));
    }
  }
  Decision d;
  d.runnable = mask;
  d.current = me;
  d.current_runnable = me != kNoThread && mask.contains(me);
  d.yielded = yielded;
  d.at = clock_;
  d.op = op;
  d.object = object_id_locked(object);
  std::uint8_t chosen = 0;
  if (strategy_ != nullptr) {
    pending_scratch_.resize(threads_.size());
    for (std::size_t t = 0; t < threads_.size(); ++t) {
      pending_scratch_[t] =
          threads_[t].state != Thread::State::finished ? threads_[t].pending : Footprint{};
    }
    const std::uint8_t preferred =
        mask.count() == 1 ? static_cast<std::uint8_t>(mask.lowest()) : default_choice(d);
    chosen = strategy_->next_thread(d, pending_scratch_, preferred);
    if (chosen >= threads_.size() || !mask.contains(chosen)) chosen = preferred;
    log_.push_back(StepRecord{chosen, threads_[chosen].pending_op,
                              object_id_locked(threads_[chosen].pending_object),
                              is_preemption(d, chosen)});
    if (mask.count() > 1) {
      d.chosen = chosen;
      d.step = static_cast<std::uint32_t>(log_.size() - 1);
      decisions_.push_back(d);
      trail_.push_back(Choice{false, chosen});
      run_length_ = chosen == me ? run_length_ + 1 : 0;
    }
  } else if (mask.count() == 1) {
    chosen = static_cast<std::uint8_t>(mask.lowest());
  } else {
    chosen = chooser_.pick(d, decisions_.size());
    d.chosen = chosen;
    decisions_.push_back(d);
    run_length_ = chosen == me ? run_length_ + 1 : 0;
  }
  running_ = chosen;
  if (chosen != me) {
    // Only the chosen thread waits for this turn: waking it alone keeps a
    // hand-off one wake-up however many threads the run has.
    turns_[chosen].notify_one();
    cv_.notify_all();  // a joiner may wait for the thread that left (wait_gone)
  }
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
  turns_[me].wait(lock, my_turn);
}

void Controller::enter(std::size_t t, const std::vector<const void*>& held) {
  const auto me = static_cast<std::uint8_t>(t);
  hooked_threads.fetch_add(1, std::memory_order_relaxed);
  tls_hook = Hook{this, me};
  const long os_thread = os_thread_id();
  std::unique_lock lock(mu_);
  threads_[t].state = Thread::State::runnable;
  threads_[t].os_thread = os_thread;
  try {
    threads_[t].held = held;
  } catch (...) {  // NOLINT(bugprone-empty-catch): out of memory; only misuse checks lose it
  }
  ++arrived_;
  if (dynamic_ ? t == 0 : arrived_ == threads_.size()) {
    if (!free_ && !cancelled_) decide_locked(lock, kNoThread, SyncOp::call, nullptr, false);
  }
  if (!free_ && !cancelled_) wait_turn_locked(lock, me);
}

void Controller::leave(std::size_t t) noexcept {
  tls_hook = Hook{};
  hooked_threads.fetch_sub(1, std::memory_order_relaxed);
  std::unique_lock lock(mu_);
  threads_[t].state = Thread::State::finished;
  ++left_;
  if (free_ || cancelled_) {
    cv_.notify_all();  // a joiner may wait for this thread to leave
    return;
  }
  decide_locked(lock, static_cast<std::uint8_t>(t), SyncOp::call, nullptr, false);
}

bool Controller::point_locked(std::unique_lock<std::mutex>& lock, SyncOp op, const void* object,
                              bool sc) {
  if (free_) return false;
  if (cancelled_) return true;
  if (!pending_.empty() && check_pending_locked(object)) return false;
  if (++steps_ > max_steps_) {
    end_locked(RunStatus::livelock);
    return true;
  }
  ++clock_;
  if (op != SyncOp::call) ++sync_points_;
  const std::uint8_t me = tls_hook.thread;
  decide_locked(lock, me, op, object, op == SyncOp::yield, sc);
  if (!free_ && !cancelled_) wait_turn_locked(lock, me);
  return cancelled_ && !free_;
}

void Controller::point(SyncOp op, const void* object, bool sc) noexcept {
  std::unique_lock lock(mu_);
  // A cancelled run parks the caller for good (it would spin again), unless
  // it is unwinding: then it goes on with the plain operation.
  if (point_locked(lock, op, object, sc) && std::uncaught_exceptions() == 0) park_locked(lock);
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
  if (!pending_.empty() && check_pending_locked(object)) return false;
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

void Controller::holds(const void* object) noexcept {
  std::unique_lock lock(mu_);
  if (free_ || cancelled_) return;
  try {
    memory_lock_locked(object, true);
    threads_[tls_hook.thread].held.push_back(object);
  } catch (...) {  // NOLINT(bugprone-empty-catch): out of memory; only the deadlock text loses it
  }
}

std::string Controller::holders_locked(const void* object, std::size_t except) const {
  std::string out;
  for (std::size_t t = 0; t < threads_.size(); ++t) {
    const auto& h = threads_[t].held;
    if (t == except || std::find(h.begin(), h.end(), object) == h.end()) continue;
    out += fmt::format("{}branch {}", out.empty() ? "" : " and ", t);
  }
  return out;
}

void Controller::misuse_locked(std::string_view tag, std::string detail) {
  if (misuse_) return;  // the first one is the verdict
  misuse_ = Misuse{tag, std::move(detail)};
}

Release Controller::releases(SyncOp op, const void* object) noexcept {
  std::unique_lock lock(mu_);
  if (free_ || cancelled_) return Release::held;
  const std::uint8_t me = tls_hook.thread;
  std::vector<const void*>& h = threads_[me].held;
  if (auto it = std::find(h.begin(), h.end(), object); it != h.end()) {
    h.erase(it);
    try {
      memory_lock_locked(object, false);
    } catch (...) {  // NOLINT(bugprone-empty-catch): out of memory; the model misses one release
    }
    return Release::held;
  }
  try {
    const std::string others = holders_locked(object, me);
    if (others.empty()) return Release::unknown;
    misuse_locked(sync::kUnlockNotOwnedTag,
                  fmt::format("branch {} unlocks mutex #{}, which it does not hold (held by "
                              "{}; a {} by a thread that is not the owner); the unlock was "
                              "skipped",
                              me, object_id_locked(object), others, name(op)));
  } catch (...) {  // NOLINT(bugprone-empty-catch): out of memory; the unlock is still skipped
  }
  return Release::misuse;
}

void Controller::unlocked_twice(SyncOp op, const void* object) noexcept {
  std::unique_lock lock(mu_);
  if (free_ || cancelled_) return;
  try {
    misuse_locked(sync::kDoubleUnlockTag,
                  fmt::format("branch {} unlocks mutex #{}, which no thread holds (a second {}?); "
                              "the unlock was skipped",
                              tls_hook.thread, object_id_locked(object), name(op)));
  } catch (...) {  // NOLINT(bugprone-empty-catch): out of memory; only the text is lost
  }
}

bool Controller::waits_holding(const void* cv, const void* mutex, bool owns) noexcept {
  std::unique_lock lock(mu_);
  if (free_ || cancelled_) return true;
  const std::uint8_t me = tls_hook.thread;
  const auto& h = threads_[me].held;
  const bool mine = mutex != nullptr && std::find(h.begin(), h.end(), mutex) != h.end();
  if (mine) return true;
  try {
    const std::string others = mutex != nullptr ? holders_locked(mutex, me) : std::string();
    if (owns && mutex != nullptr && others.empty()) return true;  // locked before the run
    const std::uint32_t cv_id = object_id_locked(cv);
    misuse_locked(
        sync::kWaitWithoutLockTag,
        mutex == nullptr
            ? fmt::format("branch {} waits on condition_variable #{} with a unique_lock that has "
                          "no mutex",
                          me, cv_id)
            : fmt::format("branch {} waits on condition_variable #{} without holding its mutex "
                          "#{} ({}); the wait was not made",
                          me, cv_id, object_id_locked(mutex),
                          others.empty() ? std::string("its unique_lock does not own it")
                                         : "it is held by " + others));
  } catch (...) {  // NOLINT(bugprone-empty-catch): out of memory; the wait is still refused
  }
  return false;
}

std::size_t Controller::destroying(const void* object) noexcept {
  std::unique_lock lock(mu_);
  if (free_ || cancelled_) return 0;
  const std::uint8_t me = tls_hook.thread;
  std::size_t mine = 0;
  try {
    const std::string holders = holders_locked(object, kMaxControlledThreads);
    if (!holders.empty()) {
      misuse_locked(sync::kDestroyedLockedTag,
                    fmt::format("branch {} destroys mutex #{} while held by {}", me,
                                object_id_locked(object), holders));
    }
  } catch (...) {  // NOLINT(bugprone-empty-catch): out of memory; only the text is lost
  }
  for (std::size_t t = 0; t < threads_.size(); ++t) {
    auto& h = threads_[t].held;
    const auto n = static_cast<std::size_t>(std::count(h.begin(), h.end(), object));
    if (t == me) mine = n;
    h.erase(std::remove(h.begin(), h.end(), object), h.end());
  }
  return mine;
}

void Controller::park_if_cancelled() noexcept {
  std::unique_lock lock(mu_);
  if (cancelled_ && !free_) park_locked(lock);
}

void Controller::uncontrolled(SyncOp op, const void* object, long os_thread) noexcept {
  std::unique_lock lock(mu_);
  if (free_ || cancelled_ || status_ != RunStatus::running || object == nullptr) return;
  try {
    if (std::find(objects_.begin(), objects_.end(), object) != objects_.end()) {
      description_ = uncontrolled_text(op, object_id_locked(object), os_thread);
      end_locked(RunStatus::foreign);
      return;
    }
    for (const Uncontrolled& u : pending_) {
      if (u.object == object) return;
    }
    if (pending_.size() < kMaxPending) pending_.push_back(Uncontrolled{object, op, os_thread});
  } catch (...) {  // NOLINT(bugprone-empty-catch): out of memory; this use goes unreported
  }
}

bool Controller::check_pending_locked(const void* object) {
  if (object == nullptr) return false;
  for (const Uncontrolled& u : pending_) {
    if (u.object != object) continue;
    description_ = uncontrolled_text(u.op, object_id_locked(object), u.os_thread);
    end_locked(RunStatus::foreign);
    return true;
  }
  return false;
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
  for (std::condition_variable& turn : turns_) turn.notify_all();
}

bool Controller::settled(std::size_t& parked) const {
  std::unique_lock lock(mu_);
  parked = parked_;
  return parked_ + left_ >= threads_.size();
}

bool Controller::stalled() const {
  std::unique_lock lock(mu_);
  // At least one thread parked: when every thread has left, each is past
  // its last step and its task returns on its own; reporting a stall then
  // would race the task's end and call a thread abandoned that is not.
  return (status_ == RunStatus::livelock || status_ == RunStatus::deadlock) && parked_ > 0 &&
         parked_ + left_ >= threads_.size();
}

std::optional<Misuse> Controller::misuse() const {
  std::unique_lock lock(mu_);
  return misuse_;
}

std::vector<const void*> Controller::held(std::size_t t) const {
  std::unique_lock lock(mu_);
  return t < threads_.size() ? threads_[t].held : std::vector<const void*>{};
}

void Controller::look_outside(std::chrono::steady_clock::time_point now) {
  std::unique_lock lock(mu_);
  if (status_ != RunStatus::running || free_ || cancelled_) return;
  const std::uint8_t r = running_.load(std::memory_order_relaxed);
  if (r == kNoThread || r >= threads_.size()) {
    look_thread_ = kNoThread;
    return;
  }
  if (r != look_thread_ || steps_ != look_steps_) {
    look_thread_ = r;
    look_steps_ = steps_;
    look_at_ = now + kLookOutsideAfter;
    return;
  }
  if (now < look_at_) return;
  look_at_ = now + kLookOutsideAfter;
  if (look_outside_locked()) end_locked(RunStatus::foreign);
}

#if defined(__linux__) && defined(__GLIBC__)
namespace {

/// The address thread `tid` of this process waits on in a futex wait, or 0
/// (it is not in one, or /proc cannot say).
std::uintptr_t futex_wait_address(long tid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/self/task/%ld/syscall", tid);
  std::FILE* f = std::fopen(path, "re");
  if (f == nullptr) return 0;
  long nr = -1;
  unsigned long addr = 0;
  unsigned long futex_op = 0;
  unsigned long value = 0;
  unsigned long timeout = 0;
  const int got = std::fscanf(f, "%ld %lx %lx %lx %lx", &nr, &addr, &futex_op, &value, &timeout);
  std::fclose(f);
  // A wait with a timeout (a timed lock) ends by itself: not a lock wait
  // that only the owner can end.
  if (got != 5 || timeout != 0) return 0;
  bool futex = false;
#ifdef SYS_futex
  futex = futex || nr == SYS_futex;
#endif
#ifdef SYS_futex_time64
  futex = futex || nr == SYS_futex_time64;
#endif
  const unsigned long cmd =
      futex_op & ~static_cast<unsigned long>(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME);
  if (!futex || (cmd != FUTEX_WAIT && cmd != FUTEX_WAIT_BITSET)) return 0;
  return static_cast<std::uintptr_t>(addr);
}

/// Copies `size` bytes at `addr` of this process's memory through
/// /proc/self/mem: an address that is no longer mapped is an error, not a
/// crash, and the sanitizers do not see the read.
bool read_own_memory(std::uintptr_t addr, void* out, std::size_t size) {
  const int fd = ::open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const ssize_t got = ::pread(fd, out, size, static_cast<off_t>(addr));
  ::close(fd);
  return got == static_cast<ssize_t>(size);
}

}  // namespace
#endif

bool Controller::look_outside_locked() {
#if defined(__linux__) && defined(__GLIBC__)
  // Facts, not time: the branch with the turn waits in the kernel on a
  // pthread mutex (a std::mutex is one), locked, whose owner is a branch of
  // this run that waits for its turn here. That branch cannot move until
  // the one with the turn reaches a point, which it cannot until the owner
  // unlocks: a deadlock through a lock merilo does not see.
  const std::uint8_t r = running_.load(std::memory_order_relaxed);
  const Thread& me = threads_[r];
  if (me.state != Thread::State::runnable || me.os_thread <= 0) return false;
  const std::uintptr_t addr = futex_wait_address(me.os_thread);
  const auto self = reinterpret_cast<std::uintptr_t>(this);
  if (addr == 0 || (addr >= self && addr < self + sizeof *this)) return false;  // our own turn
  pthread_mutex_t m;
  if (!read_own_memory(addr, &m, sizeof m)) return false;
  if (m.__data.__lock == 0 || (m.__data.__kind & 0x7f) > 3) return false;
  for (std::size_t o = 0; o < threads_.size(); ++o) {
    const Thread& th = threads_[o];
    if (o == r || th.os_thread != m.__data.__owner) continue;
    if (th.state != Thread::State::runnable && th.state != Thread::State::blocked) return false;
    description_ = fmt::format(
        "merilo::parallel: branch {} blocks in a lock merilo does not control (a std::mutex or "
        "another pthread mutex, at {:#x}) held by branch {}, which {} under the controlled "
        "scheduler, where one branch runs at a time: neither can go on. A lock held across a "
        "merilo::sync operation must be a merilo::sync one (merilo::sync::mutex for "
        "std::mutex), or check this system with CheckOptions::scheduler = Scheduler::stress",
        r, addr, o,
        th.state == Thread::State::blocked
            ? fmt::format("waits in {} on object #{}", name(th.blocked_op),
                          object_id_locked(th.blocked_on))
            : std::string("waits for its turn at a merilo::sync operation"));
    return true;
  }
  return false;
#else
  return false;
#endif
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

// --- sync::model runs ------------------------------------------------------

std::uint8_t Controller::spawn(const void* start, const void* finish) {
  std::unique_lock lock(mu_);
  if (threads_.size() >= kMaxControlledThreads) {
    misuse_locked(sync::kTooManyThreadsTag,
                  fmt::format("thread {} starts a thread beyond the limit of {} threads a "
                              "controlled run can have, the body included (kMaxThreads); the "
                              "thread was not started",
                              tls_hook.thread, kMaxControlledThreads));
    return kNoThread;
  }
  const auto child = static_cast<std::uint8_t>(threads_.size());
  threads_.emplace_back();
  Thread& th = threads_.back();
  th.state = Thread::State::runnable;
  th.pending_op = SyncOp::start;
  th.pending_object = start;
  th.pending = footprint_of(SyncOp::start, object_id_locked(start), false);
  th.finish_token = finish;
  (void)object_id_locked(finish);
  if (memory_ != nullptr) memory_->spawn(tls_hook.thread, child);
  return child;
}

bool Controller::finished(std::uint8_t t) const {
  std::unique_lock lock(mu_);
  return t < threads_.size() && threads_[t].state == Thread::State::finished;
}

std::uint32_t Controller::location_locked(const void* object, std::uint64_t initial) {
  for (const auto& [o, id] : locations_) {
    if (o == object) return id;
  }
  // A location the run has not used yet holds what the object held when
  // the run first touched it; its initial store happens before every event.
  const LocationId id = memory_->new_location(initial);
  locations_.emplace_back(object, id);
  return id;
}

std::size_t Controller::pick_value_locked(std::size_t count) {
  if (count < 2) return 0;
  std::size_t v = strategy_->next_value(count);
  if (v >= count) v = 0;
  trail_.push_back(Choice{true, static_cast<std::uint8_t>(v)});
  return v;
}

void Controller::memory_lock_locked(const void* object, bool acquire) {
  if (memory_ == nullptr) return;
  LockId id = 0;
  bool found = false;
  for (const auto& [o, l] : locks_) {
    if (o == object) {
      id = l;
      found = true;
      break;
    }
  }
  if (!found) {
    id = memory_->new_lock();
    locks_.emplace_back(object, id);
  }
  const ThreadId me = tls_hook.thread;
  if (acquire) {
    memory_->lock(me, id);
  } else {
    memory_->unlock(me, id);
  }
}

std::uint64_t Controller::model_load(const void* object, MemOrder order, std::uint64_t initial) {
  std::unique_lock lock(mu_);
  const LocationId x = location_locked(object, initial);
  const auto candidates = memory_->prepare_load(tls_hook.thread, x, order);
  const std::uint64_t v = memory_->commit_load(pick_value_locked(candidates.size()));
  note_event_locked();
  return v;
}

std::uint64_t Controller::model_store(const void* object, MemOrder order, std::uint64_t value,
                                      std::uint64_t initial) {
  std::unique_lock lock(mu_);
  const LocationId x = location_locked(object, initial);
  const std::size_t places = memory_->prepare_store(tls_hook.thread, x, order);
  (void)memory_->commit_store(pick_value_locked(places), value);
  note_event_locked();
  return memory_->latest(x);
}

std::uint64_t Controller::model_rmw(const void* object, MemOrder order, std::uint64_t initial,
                                    Modify modify, std::uint64_t arg, std::uint64_t& latest) {
  std::unique_lock lock(mu_);
  const LocationId x = location_locked(object, initial);
  const auto candidates = memory_->prepare_rmw(tls_hook.thread, x, order);
  const std::size_t choice = pick_value_locked(candidates.size());
  const std::uint64_t read = candidates[choice].value;
  (void)memory_->commit_rmw(choice, modify(read, arg));
  note_event_locked();
  latest = memory_->latest(x);
  return read;
}

CasResult Controller::model_cas(const void* object, std::uint64_t expected, std::uint64_t desired,
                                MemOrder success, MemOrder failure, std::uint64_t initial,
                                std::uint64_t& latest) {
  std::unique_lock lock(mu_);
  const LocationId x = location_locked(object, initial);
  const auto candidates = memory_->prepare_cas(tls_hook.thread, x, expected, success, failure);
  const CasResult r = memory_->commit_cas(pick_value_locked(candidates.size()), desired);
  note_event_locked();
  latest = memory_->latest(x);
  return r;
}

void Controller::model_fence(MemOrder order) {
  std::unique_lock lock(mu_);
  memory_->fence(tls_hook.thread, order);
  if (order != MemOrder::relaxed) note_event_locked();
}

void Controller::note_event_locked() {
  // The step under way is the running thread's, the last one logged.
  if (log_.empty() || log_.back().thread != tls_hook.thread) return;
  log_.back().event = static_cast<std::uint32_t>(memory_->events(tls_hook.thread).size());
}

std::vector<std::string> Controller::location_names_locked() const {
  std::vector<std::string> names(memory_ != nullptr ? memory_->locations() : 0);
  for (const auto& [o, id] : locations_) {
    const auto it = std::find(objects_.begin(), objects_.end(), o);
    names[id] = fmt::format("#{}", static_cast<std::size_t>(it - objects_.begin()) + 1);
  }
  return names;
}

std::string Controller::timeline() const {
  std::unique_lock lock(mu_);
  const std::vector<std::string> names = location_names_locked();
  std::string out;
  for (std::size_t i = 0; i < log_.size(); ++i) {
    const StepRecord& s = log_[i];
    std::string line = fmt::format("  {:>4}  thread {}  {}", i + 1, s.thread, name(s.op));
    if (s.object != 0) line += fmt::format(" #{}", s.object);
    if (s.event != 0 && memory_ != nullptr) {
      line += ": " + describe_event(*memory_, EventRef{s.thread, s.event - 1}, names);
    }
    if (s.preemption) line += "   <- preemption";
    out += line + '\n';
  }
  return out;
}

void Controller::acquire_point(SyncOp op, const void* object) {
  std::unique_lock lock(mu_);
  if (!point_locked(lock, op, object) || std::uncaught_exceptions() != 0) return;
  if (dynamic_) {
    lock.unlock();
    throw sync::Cancelled{};
  }
  park_locked(lock);
}

void Controller::joined(std::uint8_t t) {
  std::unique_lock lock(mu_);
  if (free_ || cancelled_ || memory_ == nullptr) return;
  if (t < threads_.size() && threads_[t].state == Thread::State::finished) {
    memory_->join(tls_hook.thread, t);
  }
}

void Controller::thread_failed(std::exception_ptr e) noexcept {
  std::unique_lock lock(mu_);
  if (failure_) return;
  failure_ = std::move(e);
  failed_thread_ = tls_hook.thread;
}

std::exception_ptr Controller::failure() const {
  std::unique_lock lock(mu_);
  return failure_;
}

std::uint8_t Controller::failed_thread() const {
  std::unique_lock lock(mu_);
  return failed_thread_;
}

void Controller::not_joined() noexcept {
  std::unique_lock lock(mu_);
  if (free_ || cancelled_) return;
  try {
    misuse_locked(sync::kNotJoinedTag,
                  fmt::format("thread {} destroyed a sync::thread that was still joinable (std "
                              "would call std::terminate); it was joined",
                              tls_hook.thread));
  } catch (...) {  // NOLINT(bugprone-empty-catch): out of memory; only the text is lost
  }
}

std::vector<StepRecord> Controller::log() const {
  std::unique_lock lock(mu_);
  return log_;
}

std::vector<Footprint> Controller::pending_steps() const {
  std::unique_lock lock(mu_);
  std::vector<Footprint> out(threads_.size());
  for (std::size_t t = 0; t < threads_.size(); ++t) {
    if (threads_[t].state != Thread::State::finished) out[t] = threads_[t].pending;
  }
  return out;
}

std::vector<Choice> Controller::trail() const {
  std::unique_lock lock(mu_);
  return trail_;
}

std::size_t Controller::thread_count() const {
  std::unique_lock lock(mu_);
  return threads_.size();
}

std::string Controller::format_memory() const {
  std::unique_lock lock(mu_);
  if (memory_ == nullptr) return {};
  return format_execution(*memory_, location_names_locked());
}

std::string Controller::describe_blocked_locked() const {
  const auto id = [&](const void* object) {
    auto it = std::find(objects_.begin(), objects_.end(), object);
    return it == objects_.end() ? std::size_t{0}
                                : static_cast<std::size_t>(it - objects_.begin()) + 1;
  };
  const char* who = dynamic_ ? "thread" : "branch";
  const auto holders = [&](std::size_t t, const void* object) {
    std::string out;
    for (std::size_t o = 0; o < threads_.size(); ++o) {
      const auto& h = threads_[o].held;
      if (o != t && std::find(h.begin(), h.end(), object) != h.end()) {
        out += fmt::format(", held by {} {}", who, o);
      }
    }
    return out;
  };
  std::string out;
  for (std::size_t t = 0; t < threads_.size(); ++t) {
    const Thread& th = threads_[t];
    if (!out.empty()) out += "; ";
    switch (th.state) {
      case Thread::State::blocked:
        out += fmt::format("{} {} waits in {} on object #{}{}", who, t, name(th.blocked_op),
                           id(th.blocked_on), holders(t, th.blocked_on));
        break;
      case Thread::State::finished:
        out += fmt::format("{} {} finished", who, t);
        break;
      case Thread::State::runnable:
        if (dynamic_ && th.pending_op == SyncOp::lock) {
          out += fmt::format("{} {} waits to lock mutex #{}{}", who, t, id(th.pending_object),
                             holders(t, th.pending_object));
        } else if (dynamic_ && th.pending_op == SyncOp::join) {
          std::size_t child = 0;
          for (std::size_t c = 0; c < threads_.size(); ++c) {
            if (threads_[c].finish_token == th.pending_object) child = c;
          }
          out += fmt::format("{} {} waits to join thread {}", who, t, child);
        } else {
          out += fmt::format("{} {} never started", who, t);
        }
        break;
      case Thread::State::absent:
        out += fmt::format("{} {} never started", who, t);
        break;
    }
    if (!th.held.empty() && th.state != Thread::State::finished) {
      out += ", holding";
      for (const void* h : th.held) out += fmt::format(" #{}", id(h));
    }
  }
  return out;
}

}  // namespace merilo::sync::detail
