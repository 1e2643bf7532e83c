// merilo/sync/detail/controller.hpp — the scheduler of a controlled run:
// the branches' threads take turns, one at a time, and hand control over at
// every merilo::sync operation (a scheduling point).
//
// A `Controller` serves one execution. Each branch thread calls `enter(t)`
// before its first call and `leave(t)` after its last; in between, the
// sync types (sync.hpp) call `point` before every visible operation and
// `block` when they cannot proceed (a mutex held by another thread, a
// condition not signalled). At each point the controller asks its
// `Chooser` which runnable thread goes next; a point with a single runnable
// thread is no decision. The decisions made are the execution's schedule:
// given as the forced prefix of another execution they make it again,
// exactly, as long as the system is deterministic under the schedule.
//
// A thread that blocks when no thread is runnable ends the run as a
// deadlock; a run that exceeds its step budget ends as a livelock. Either
// way the run is cancelled: every thread in a blocking operation or a
// yield leaves it by throwing `sync::Cancelled` (so its locks unwind),
// unless it is already unwinding, and a thread at any other point stays
// parked there for good (it would spin again): it is abandoned with its
// system, and `stalled()` tells the checking thread to stop waiting. When
// the checking thread gives up on a thread that never reached a point
// (`drop`), control is dropped instead: every operation is then the plain
// std one.
//
// The controller also knows who holds each merilo::sync mutex, so it names
// misuse (an unlock by a thread that does not hold the mutex, a second
// unlock, a condition wait without its lock, a held mutex destroyed) as a
// verdict of its own (`misuse()`), and the run goes on under control. Two
// things it cannot schedule end the run as a usage error instead
// (`RunStatus::foreign`, control dropped): a merilo::sync operation from a
// thread that is not a branch of the run, on an object the run uses
// (`note_uncontrolled`), and a branch that blocks in a lock merilo does not
// control held by a branch waiting for its turn (`look_outside`).
//
// A controller serves two entry points. `parallel::check` gives it a fixed
// number of branch threads and a `Chooser`, consulted where two or more
// threads can run. `sync::model` gives it a `Strategy`, consulted at every
// step with every thread's pending step (so a partial-order reduction sees
// the whole execution), and a `MemoryModel`: thread 0 is the test body,
// the others are spawned by `sync::thread` as the run goes, and atomic
// operations read and write the model's execution graph, so a load may
// read any store the C++ memory model allows (`model_load` and friends).
//
// NOTE: the controller's mutex orders every turn, so whatever one thread
// wrote to plain memory is visible to the next. Without a `MemoryModel`
// the atomics are sequentially consistent too (parallel's runs); with one,
// atomics follow RC11 (docs/design/memory-model.md) while plain variables
// stay sequentially consistent.
#ifndef MERILO_SYNC_DETAIL_CONTROLLER_HPP
#define MERILO_SYNC_DETAIL_CONTROLLER_HPP

#include <atomic>              // the turn, read while spinning
#include <chrono>              // when to look at a branch that reaches no point
#include <condition_variable>  // turns
#include <cstddef>             // std::size_t
#include <cstdint>             // std::uint8_t, std::uint64_t, std::int64_t
#include <exception>           // a thread's failure
#include <mutex>               // turns
#include <optional>            // a misuse, if any
#include <span>                // PendingSteps
#include <string>              // the deadlock's description
#include <string_view>         // verdict tags
#include <utility>             // std::pair
#include <vector>              // decisions, threads

#include <merilo/sync/detail/footprint.hpp>  // Footprint: what each pending step touches
#include <merilo/sync/detail/mem_order.hpp>  // MemOrder, CasResult
#include <merilo/sync/tags.hpp>              // the misuse verdicts' tags

namespace merilo::sync::detail {

/// What a thread was about to do at a scheduling point (or blocked in).
enum class SyncOp : std::uint8_t {
  call,           ///< The start of a call of `run` (not an operation of the system).
  load,           ///< atomic load.
  store,          ///< atomic store.
  rmw,            ///< atomic read-modify-write (exchange, fetch_*, ++, ...).
  cas,            ///< atomic compare-exchange.
  atomic_wait,    ///< atomic wait (C++20).
  atomic_notify,  ///< atomic notify.
  lock,           ///< mutex lock (exclusive).
  try_lock,       ///< mutex try_lock.
  unlock,         ///< mutex unlock (exclusive).
  lock_shared,    ///< shared_mutex lock_shared.
  unlock_shared,  ///< shared_mutex unlock_shared.
  cv_wait,        ///< condition_variable wait.
  cv_notify,      ///< condition_variable notify_one / notify_all.
  yield,          ///< this_thread::yield.
  fence,          ///< atomic_thread_fence.
  spawn,          ///< sync::thread starts a thread.
  start,          ///< A spawned thread's first step.
  finish,         ///< A spawned thread's last step.
  join,           ///< sync::thread::join.
};

/// How the reduction sees a step that starts with `op` on object `object`
/// (1-based id, 0: none); `sc`: a seq_cst atomic access or fence.
[[nodiscard]] Footprint footprint_of(SyncOp op, std::uint32_t object, bool sc) noexcept;

/// "atomic load", "mutex lock", ... (for reports).
[[nodiscard]] const char* name(SyncOp op) noexcept;

/// The thread count a controlled run supports, the body included (the
/// width of a `ThreadSet`).
inline constexpr std::size_t kMaxControlledThreads = kMaxThreads;
/// Decisions in a row at which a thread may go on while another could run,
/// before the default switches away from it (fairness for spin loops).
inline constexpr std::size_t kFairSteps = 64;
/// Pause instructions a thread spins for its turn before it sleeps on the
/// condition variable: a turn is usually handed over within a microsecond
/// or two, and a thread that is still spinning is handed it without a
/// system call on either side (a futex wake and wait cost tens of
/// microseconds on a loaded machine).
inline constexpr unsigned kHandOffSpins = 256;
/// `Decision::current` when no thread was running (the first decision).
inline constexpr std::uint8_t kNoThread = 0xff;
/// How long the branch with the turn may go without reaching a point
/// before the checking thread looks at what it is blocked in (and again
/// after each such span). Only the look decides anything: a branch that
/// is slow, or runnable on an overloaded machine, is never judged by it.
inline constexpr std::chrono::milliseconds kLookOutsideAfter{50};

/// One decision: which threads could run, who was running, who was chosen.
struct Decision {
  ThreadSet runnable{};              ///< The threads that could go next (two or more).
  std::uint8_t current = kNoThread;  ///< The thread that reached the point, or kNoThread.
  bool current_runnable = false;     ///< `current` could have gone on.
  bool yielded = false;              ///< `current` was at a yield (switching is no preemption).
  std::uint8_t chosen = 0;           ///< Who went next.
  std::int64_t at = 0;               ///< The logical instant of the decision.
  SyncOp op = SyncOp::call;          ///< What `current` was about to do.
  std::uint32_t object = 0;          ///< Which object (1-based, in order of first use), 0: none.
  /// `sync::model` runs: the position in the run's steps (`log()`) of the
  /// step it chose.
  std::uint32_t step = 0;
};

/// Whether choosing `chosen` at `d` is a preemption: the running thread
/// could have gone on, had not yielded, and another was picked.
[[nodiscard]] bool is_preemption(const Decision& d, std::uint8_t chosen) noexcept;
/// The choice a schedule makes at `d` when it says nothing: the running
/// thread goes on unless it blocked, finished or yielded; then the next
/// runnable thread after it in round-robin order.
[[nodiscard]] std::uint8_t default_choice(const Decision& d) noexcept;

/// Picks the next thread at each decision: first the forced prefix, then a
/// continuation (the defaults, uniform random, or PCT).
class Chooser {
 public:
  /// How choices are made once the forced prefix is used up.
  enum class Then : std::uint8_t { defaults, random, pct };

  Chooser() = default;
  /// `forced` are the first choices; `seed` drives random and PCT; PCT
  /// uses `depth` - 1 priority change points spread over `length`
  /// expected decisions.
  Chooser(std::vector<std::uint8_t> forced, Then then, std::uint64_t seed, std::size_t threads,
          std::size_t depth, std::size_t length);

  /// The choice at `d` (the `index`-th decision of the run). Sets
  /// `diverged` when a forced choice is not runnable (the default is taken
  /// instead).
  std::uint8_t pick(const Decision& d, std::size_t index);
  /// A forced choice named a thread that could not run.
  [[nodiscard]] bool diverged() const noexcept { return diverged_; }

 private:
  std::vector<std::uint8_t> forced_;
  Then then_ = Then::defaults;
  std::uint64_t rng_ = 0;               // SplitMix64 state: drives the random and PCT choices
  std::vector<std::size_t> priority_;   // PCT: higher runs first
  std::vector<std::size_t> change_at_;  // PCT: decision indices where priorities drop
  std::size_t lowered_ = 0;             // PCT: change points used
  bool diverged_ = false;
};

/// How a controlled run ended.
enum class RunStatus : std::uint8_t {
  running,   ///< Not over yet.
  finished,  ///< Every thread left.
  deadlock,  ///< Every unfinished thread blocked.
  livelock,  ///< The step budget ran out.
  dropped,   ///< The checking thread dropped control (a thread never reached a point).
  foreign,   ///< Something merilo does not control took part (a usage error; control dropped).
};

/// sync::mutex misuse seen in a controlled run: a verdict tag and its text.
struct Misuse {
  std::string_view tag;  ///< sync::kUnlockNotOwnedTag, kDoubleUnlockTag, ...
  std::string detail;    ///< Which thread did what to which object.
};

/// What `Controller::releases` found about an unlock.
enum class Release : std::uint8_t {
  held,     ///< The caller held the mutex (it no longer does): unlock it.
  misuse,   ///< Another thread holds it: recorded as misuse; skip the unlock.
  unknown,  ///< No thread of the run holds it: unlocked, or locked before the run.
};

class MemoryModel;  // memory_model.hpp

/// The pending step of every thread, indexed by thread (Access::none, or
/// beyond the end: none, or finished).
using PendingSteps = std::span<const Footprint>;

/// Makes the choices of a `sync::model` execution: which thread takes each
/// step, and which store a load reads (or where a store goes in its
/// location's modification order). One object may serve many executions
/// (a search); the controller calls it from the thread that has the turn.
class Strategy {
 public:
  Strategy() = default;
  Strategy(const Strategy&) = delete;
  Strategy& operator=(const Strategy&) = delete;
  virtual ~Strategy() = default;
  /// The thread that takes the next step. `d.runnable` holds the enabled
  /// threads (one or more), `pending` every thread's next step, `preferred`
  /// the default choice (the running thread goes on unless it cannot).
  virtual std::uint8_t next_thread(const Decision& d, PendingSteps pending,
                                   std::uint8_t preferred) = 0;
  /// Which of `count` (two or more) memory-model choices the current step
  /// takes; 0 is the sequentially consistent one.
  virtual std::size_t next_value(std::size_t count) = 0;
};

/// One choice of a `sync::model` execution, as a pin records it.
struct Choice {
  bool value = false;      ///< A memory-model choice (else a thread choice).
  std::uint8_t index = 0;  ///< The thread, or the candidate's index.
  friend bool operator==(const Choice&, const Choice&) = default;
};

/// One step of a `sync::model` execution, for its timeline.
struct StepRecord {
  std::uint8_t thread = 0;   ///< Who took it.
  SyncOp op = SyncOp::call;  ///< The operation it started with.
  std::uint32_t object = 0;  ///< Its object (1-based), or 0.
  bool preemption = false;   ///< Chosen while the running thread could go on.
  /// The memory-model event it made (its index in its thread's events + 1),
  /// or 0.
  std::uint32_t event = 0;
};

/// The scheduler of one controlled execution (see the top of this file).
class Controller {
 public:
  /// `threads` branch threads (2..kMaxControlledThreads), choices from
  /// `chooser`, at most `max_steps` scheduling points.
  Controller(std::size_t threads, Chooser chooser, std::size_t max_steps);
  /// A `sync::model` run: thread 0 (the body) enters first; `spawn` adds
  /// the others. `strategy` makes every choice; `memory` (may be null:
  /// sequentially consistent atomics) is reset here and must outlive the run.
  Controller(Strategy& strategy, MemoryModel* memory, std::size_t max_steps);
  Controller(const Controller&) = delete;
  Controller& operator=(const Controller&) = delete;
  ~Controller();

  // --- called on branch thread `t` ---------------------------------------

  /// Makes the calling thread branch `t` of this run and waits for its
  /// first turn; `held` are the merilo::sync mutexes it already holds (from
  /// the prefix, run on this thread under another controller).
  void enter(std::size_t t, const std::vector<const void*>& held = {});
  /// Branch `t` is done: the next thread runs.
  void leave(std::size_t t) noexcept;
  /// A visible operation `op` on `object` is about to run: another thread
  /// may go first. In a cancelled run the caller stays parked here. `sc`:
  /// a seq_cst atomic access or fence (the reduction orders those).
  void point(SyncOp op, const void* object, bool sc = false) noexcept;
  /// A yield: a point at which switching is no preemption. Throws
  /// `sync::Cancelled` in a cancelled run unless the caller is unwinding.
  void yield_point();
  /// The caller cannot go on until `wake(object)`. Returns true when woken
  /// and scheduled, false when control was dropped meanwhile (the caller
  /// then does the plain std operation); throws `sync::Cancelled` when the
  /// run ended in a deadlock and the caller is not unwinding.
  bool block(SyncOp op, const void* object, bool timed = false, bool* timed_out = nullptr);
  /// Makes the threads blocked on `object` runnable (all, or the one that
  /// blocked first).
  void wake(const void* object, bool all) noexcept;
  /// The calling thread now holds `object` (a lock or try_lock succeeded).
  void holds(const void* object) noexcept;
  /// The calling thread is about to unlock `object` (`op`: unlock or
  /// unlock_shared). See `Release`.
  [[nodiscard]] Release releases(SyncOp op, const void* object) noexcept;
  /// After `Release::unknown`, the caller found `object` unlocked: a second
  /// unlock, recorded as misuse (the caller skips it).
  void unlocked_twice(SyncOp op, const void* object) noexcept;
  /// The calling thread is about to wait on condition variable `cv` with
  /// `mutex` (`owns`: its lock owns it): false, recorded as misuse, when
  /// it does not hold it.
  [[nodiscard]] bool waits_holding(const void* cv, const void* mutex, bool owns) noexcept;
  /// Mutex `object` is being destroyed: recorded as misuse when a thread
  /// holds it. Returns how many times the calling thread held it (they
  /// are released: the caller unlocks them before the mutex goes).
  std::size_t destroying(const void* object) noexcept;
  /// In a cancelled run, parks the caller for good (a `noexcept` wait that
  /// cannot throw `sync::Cancelled`); returns at once otherwise, or when
  /// control is dropped.
  void park_if_cancelled() noexcept;
  /// A thread that is not a branch of this run did `op` on `object`: if a
  /// branch uses `object` (now, or later), the run ends as
  /// `RunStatus::foreign`.
  void uncontrolled(SyncOp op, const void* object, long os_thread) noexcept;
  /// The next logical instant (a call's invocation or return).
  std::int64_t tick() noexcept;

  // --- sync::model runs (called on the thread with the turn) -------------

  /// The calling thread starts a thread (after its `SyncOp::spawn` point at
  /// `start`); returns the new thread's index, which enters with
  /// `enter(index)` on its own OS thread, or kNoThread when the run already
  /// has kMaxControlledThreads threads (a usage error, recorded as misuse).
  /// `finish` is the token its last point and its joiner's `join` use.
  std::uint8_t spawn(const void* start, const void* finish);
  /// Whether thread `t` has left the run.
  [[nodiscard]] bool finished(std::uint8_t t) const;
  /// Waits until thread `t` has left the run (true) or is parked for good in
  /// a cancelled run (false: it will never leave).
  bool wait_gone(std::uint8_t t);
  /// Atomics follow a memory model in this run.
  [[nodiscard]] bool models_memory() const noexcept { return memory_ != nullptr; }
  /// A load of `object` (whose value before the run is `initial`): the
  /// value of the store the strategy picked among those RC11 allows.
  std::uint64_t model_load(const void* object, MemOrder order, std::uint64_t initial);
  /// A store of `value`; returns the value newest in modification order.
  std::uint64_t model_store(const void* object, MemOrder order, std::uint64_t value,
                            std::uint64_t initial);
  /// How a read-modify-write computes what it writes from what it read.
  using Modify = std::uint64_t (*)(std::uint64_t read, std::uint64_t arg) noexcept;
  /// A read-modify-write; returns the value read, and the value newest in
  /// modification order in `latest`.
  std::uint64_t model_rmw(const void* object, MemOrder order, std::uint64_t initial, Modify modify,
                          std::uint64_t arg, std::uint64_t& latest);
  /// A compare-exchange; `latest` as for `model_rmw`.
  CasResult model_cas(const void* object, std::uint64_t expected, std::uint64_t desired,
                      MemOrder success, MemOrder failure, std::uint64_t initial,
                      std::uint64_t& latest);
  /// atomic_thread_fence(order).
  void model_fence(MemOrder order);
  /// A point before an operation that can only run once another thread
  /// has done something (a lock, a join). In a `sync::model` run that was
  /// cancelled it throws `sync::Cancelled` (unless the caller is
  /// unwinding), so the thread unwinds; elsewhere it is `point`.
  void acquire_point(SyncOp op, const void* object);
  /// The calling thread has joined thread `t` (its end happens before
  /// what the caller does next).
  void joined(std::uint8_t t);
  /// Thread `t` (or the body, 0) ended with exception `e`: the first one is
  /// the execution's failure.
  void thread_failed(std::exception_ptr e) noexcept;
  /// The first exception a thread ended with, or null.
  [[nodiscard]] std::exception_ptr failure() const;
  /// The thread the first exception ended.
  [[nodiscard]] std::uint8_t failed_thread() const;
  /// A sync::thread of this run was destroyed while joinable (misuse).
  void not_joined() noexcept;
  /// Every step taken, in order (`sync::model` runs).
  [[nodiscard]] std::vector<StepRecord> log() const;
  /// The step each unfinished thread was about to take (for the reduction),
  /// indexed by thread.
  [[nodiscard]] std::vector<Footprint> pending_steps() const;
  /// The choices made, in order (a `sync::model` run's pin).
  [[nodiscard]] std::vector<Choice> trail() const;
  /// Threads started, thread 0 included.
  [[nodiscard]] std::size_t thread_count() const;
  /// The execution graph of the atomics, as text (empty without a model).
  [[nodiscard]] std::string format_memory() const;
  /// Every step, one line each, with the value each atomic access read or
  /// wrote and the store each load read.
  [[nodiscard]] std::string timeline() const;

  // --- called on the checking thread --------------------------------------

  /// Gives up control: every thread runs free from now on.
  void drop() noexcept;
  /// Polled by the checking thread while it waits for the run: when the
  /// branch with the turn has reached no point for `kLookOutsideAfter`,
  /// looks at what it is blocked in. A lock merilo does not control (a
  /// std::mutex) held by a branch that waits for its turn ends the run as
  /// `RunStatus::foreign` and drops control, so the threads finish free.
  void look_outside(std::chrono::steady_clock::time_point now);
  /// The first sync::mutex misuse seen, if any.
  [[nodiscard]] std::optional<Misuse> misuse() const;
  /// The merilo::sync mutexes branch `t` holds (the prefix's, for the race).
  [[nodiscard]] std::vector<const void*> held(std::size_t t) const;
  /// A livelock or deadlock left every unfinished thread parked, and at
  /// least one is: waiting for them is pointless. (Threads that all left
  /// are not a stall: their tasks end on their own.)
  [[nodiscard]] bool stalled() const;
  /// Every thread of the run has left it or is parked for good: nothing
  /// will touch this controller again but the parked threads. `parked`:
  /// how many are parked (their run must outlive them).
  [[nodiscard]] bool settled(std::size_t& parked) const;
  /// How the run ended (read after every thread left, or after `drop`).
  [[nodiscard]] RunStatus status() const;
  /// The decisions made, in order.
  [[nodiscard]] std::vector<Decision> decisions() const;
  /// Deadlock or livelock: who waited for what, who held what.
  [[nodiscard]] std::string description() const;
  /// The thread that had the turn (for a dropped run: the one that never
  /// reached a point), or kNoThread.
  [[nodiscard]] std::uint8_t running() const;
  /// Scheduling points reached.
  [[nodiscard]] std::size_t steps() const;
  /// Scheduling points that were merilo::sync operations (not call starts).
  [[nodiscard]] std::size_t sync_points() const;
  /// A forced choice could not be followed (the system behaved otherwise
  /// under the same schedule).
  [[nodiscard]] bool diverged() const;

 private:
  struct Thread;

  void decide_locked(std::unique_lock<std::mutex>& lock, std::uint8_t me, SyncOp op,
                     const void* object, bool yielded, bool sc = false);
  bool point_locked(std::unique_lock<std::mutex>& lock, SyncOp op, const void* object,
                    bool sc = false);
  void park_locked(std::unique_lock<std::mutex>& lock);
  void wait_turn_locked(std::unique_lock<std::mutex>& lock, std::uint8_t me);
  std::uint32_t object_id_locked(const void* object);
  void end_locked(RunStatus status);
  std::string describe_blocked_locked() const;
  bool check_pending_locked(const void* object);
  void misuse_locked(std::string_view tag, std::string detail);
  std::string holders_locked(const void* object, std::size_t except) const;
  bool look_outside_locked();
  bool enabled_locked(std::size_t t) const;
  std::uint32_t location_locked(const void* object, std::uint64_t initial);
  void note_event_locked();
  std::vector<std::string> location_names_locked() const;
  std::size_t pick_value_locked(std::size_t count);
  void memory_lock_locked(const void* object, bool acquire);

  mutable std::mutex mu_;
  std::condition_variable cv_;  // leaving, parking, dropping control
  // One per thread: thread t waits for its turn on turns_[t].
  std::vector<std::condition_variable> turns_ =
      std::vector<std::condition_variable>(kMaxControlledThreads);
  std::vector<Thread> threads_;
  Chooser chooser_;
  std::size_t max_steps_;
  std::size_t arrived_ = 0;
  std::size_t steps_ = 0;
  std::size_t sync_points_ = 0;
  std::size_t run_length_ = 0;
  std::int64_t clock_ = 0;
  std::uint64_t block_seq_ = 0;
  // Written under mu_; read without it too, by a thread spinning for its turn.
  std::atomic<std::uint8_t> running_{kNoThread};
  std::atomic<bool> free_{false};  // control dropped or the run finished: plain operations
  std::atomic<bool> cancelled_{
      false};               // deadlock or livelock: blocking operations throw, points park
  std::size_t parked_ = 0;  // threads parked for good in a cancelled run
  std::size_t left_ = 0;    // threads that left
  RunStatus status_ = RunStatus::running;
  std::vector<Decision> decisions_;
  std::vector<const void*> objects_;  // object ids, in order of first use
  std::string description_;
  std::optional<Misuse> misuse_;
  bool counted_ = true;  // counted in active_runs (until the run ends)
  // Operations of threads outside the run on objects no branch used yet.
  struct Uncontrolled {
    const void* object;
    SyncOp op;
    long os_thread;
  };
  std::vector<Uncontrolled> pending_;
  // look_outside: the turn and step count last seen, and when to look.
  std::uint8_t look_thread_ = kNoThread;
  std::size_t look_steps_ = 0;
  std::chrono::steady_clock::time_point look_at_{};
  // sync::model runs.
  Strategy* strategy_ = nullptr;
  MemoryModel* memory_ = nullptr;
  bool dynamic_ = false;  // threads are spawned as the run goes
  std::vector<Choice> trail_;
  std::vector<StepRecord> log_;
  std::vector<Footprint> pending_scratch_;  // every thread's pending step, for the strategy
  std::exception_ptr failure_;
  std::uint8_t failed_thread_ = kNoThread;
  std::vector<std::pair<const void*, std::uint32_t>> locations_;  // object -> memory location
  std::vector<std::pair<const void*, std::uint32_t>> locks_;      // object -> memory lock
};

/// The controller of the calling thread and its index in the run: set
/// between `Controller::enter` and `leave` on a branch thread.
struct Hook {
  Controller* controller = nullptr;
  std::uint8_t thread = 0;
};

/// Set on a branch thread between `Controller::enter` and `leave`.
inline constinit thread_local Hook tls_hook{};

/// Threads whose `tls_hook` is set, in the whole process: raised by
/// `Controller::enter` before it sets the hook, lowered by `leave` after it
/// clears it. While it is 0, no thread is in a controlled run, and a
/// merilo::sync operation costs one relaxed load of it and a branch (a
/// thread-local load costs more in a position-independent executable).
/// A thread that reads 0 has no hook: its own raise would be visible to it.
inline constinit std::atomic<std::size_t> hooked_threads{0};

/// Controlled runs in the process that have not ended yet: raised when a
/// `Controller` is made, lowered when its run ends. A thread without a hook
/// looks for the run an operation of its belongs to only while this is not
/// 0 (and `hooked_threads` is not 0).
inline constinit std::atomic<std::size_t> active_runs{0};

/// The calling thread has no hook and a controlled run is active: tells
/// every active run that uses (or will use) `object` (see
/// `Controller::uncontrolled`).
void note_uncontrolled(SyncOp op, const void* object) noexcept;

/// The active controller of the calling thread, or nullptr.
[[nodiscard]] inline Controller* active_controller() noexcept {
  if (hooked_threads.load(std::memory_order_relaxed) == 0) [[likely]] {
    return nullptr;
  }
  return tls_hook.controller;
}

/// The active controller of the calling thread, about to do `op` on
/// `object`, or nullptr; a thread that is no branch of an active run is
/// reported to the runs (`note_uncontrolled`) and does the plain operation.
[[nodiscard]] inline Controller* controller_for(SyncOp op, const void* object) noexcept {
  if (hooked_threads.load(std::memory_order_relaxed) == 0) [[likely]] {
    return nullptr;
  }
  Controller* c = tls_hook.controller;
  if (c == nullptr && active_runs.load(std::memory_order_relaxed) != 0) {
    note_uncontrolled(op, object);
  }
  return c;
}

}  // namespace merilo::sync::detail

#endif  // MERILO_SYNC_DETAIL_CONTROLLER_HPP
