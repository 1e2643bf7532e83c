// merilo/parallel/detail/execute_inl.hpp — one execution of a case: a fresh
// system, the prefix call by call, the race on the crew (free, or under a
// controller that picks who runs at every merilo::sync operation), the
// checker's verdict, `finish`, and `teardown` unless a thread is still
// running.
//
// Every call into the system (`run` in the prefix and in the race, and
// `finish`) runs on a crew thread under a deadline, never on the checking
// thread: a call that never returns is abandoned with its thread and
// reported as `parallel.timeout`, so no case can hang the check.
#ifndef MERILO_PARALLEL_DETAIL_EXECUTE_INL_HPP
#define MERILO_PARALLEL_DETAIL_EXECUTE_INL_HPP

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>  // Arena::prefix_mu
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <merilo/core/hash.hpp>  // core::mix64 draws the stress jitter
#include <merilo/parallel/detail/controlled.hpp>
#include <merilo/parallel/detail/crew.hpp>
#include <merilo/parallel/detail/generate_inl.hpp>
#include <merilo/parallel/detail/judge.hpp>
#include <merilo/parallel/failure.hpp>
#include <merilo/statem/guard.hpp>
#include <merilo/sync/sync.hpp>

namespace merilo::parallel::detail {

/// What one execution found.
template <class Cmd, class Resp>
struct Execution {
  MaybeViolation violation;  ///< Empty when the execution passed.
  Evidence evidence = Evidence::unrecorded;
  std::size_t prefix_step = 0;
  std::vector<Resp> prefix_responses;
  std::vector<History<Cmd, Resp>> histories;
  std::string explanation;
  std::vector<linearize::CallRef> placed;
  std::vector<StuckCall> stuck;
  std::vector<std::size_t> unfinished;
  bool left_alive = false;
  /// Controlled executions: the decisions made (the schedule), and how many
  /// merilo::sync operations the branches reached.
  bool controlled = false;
  std::vector<Decision> decisions;
  std::size_t sync_points = 0;
  /// Set when the execution could not be controlled (a thread or a lock
  /// merilo does not control took part): the check ends with this usage
  /// error. `violation` then carries `kUsageErrorTag`, so the execution
  /// counts as failed and nothing else is judged.
  std::string usage_error;
};

/// The tag of an execution's violation that is a usage error
/// (`Execution::usage_error`); never reported as a verdict.
inline constexpr std::string_view kUsageErrorTag = "merilo.usage_error";

/// Nanoseconds on the steady clock.
inline std::int64_t now_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The checker orders two calls in real time when one's return instant is
// before the other's invocation instant. On real threads that order must
// mean the first call's writes are visible to the second, or a correct
// system is judged by effects that had not happened yet: on x86 a store
// can still sit in the core's store buffer when the clock is read after
// the call, and a later call's first loads can run before the clock read
// that stamps its invocation. (Seen: a post that "returned" 0.1 us before
// a take began, and the take did not see the item.) So the return instant
// is read after a full fence, which drains the stores, and the invocation
// instant is read before one, with an `lfence` on x86, where `rdtsc` is
// not ordered by fences alone, so no load of the call starts before it.

#if defined(__x86_64__) || defined(__i386__)
/// `lfence` as an instruction rather than the SSE2 builtin, which g++
/// refuses in a 32-bit build without -msse2 (every x86 CPU since 2001 has
/// it, so the instruction itself is safe to run).
inline void x86_lfence() noexcept { __asm__ __volatile__("lfence" ::: "memory"); }
#endif

/// The instant a free call is invoked: read before any of its memory
/// operations can start.
inline std::int64_t invocation_instant() noexcept {
  const std::int64_t t = now_ns();
#if defined(__x86_64__) || defined(__i386__)
  x86_lfence();
#endif
  std::atomic_thread_fence(std::memory_order_seq_cst);
  return t;
}

/// The instant a free call returned: read after all of its writes are
/// visible to every thread.
inline std::int64_t return_instant() noexcept {
  std::atomic_thread_fence(std::memory_order_seq_cst);
#if defined(__x86_64__) || defined(__i386__)
  x86_lfence();
#endif
  return now_ns();
}

/// What the racing threads share; owned through a shared pointer by every
/// task, so an abandoned task keeps the system and the spec alive.
template <class S>
struct Arena {
  std::shared_ptr<S> spec;
  std::optional<sut_t<S>> sut;
  std::vector<std::vector<command_t<S>>> branches;
  std::vector<History<command_t<S>, response_t<S>>> histories;  // one per branch
  std::vector<MaybeViolation> crashes;                          // one per branch
  std::shared_ptr<Controller> controller;                       // a controlled race only
  std::shared_ptr<StallWatch> watch;                            // a free race only
  std::uint64_t jitter_seed = 0;                                // stress: 0 for none
  std::optional<response_t<S>> solo_response;                   // a prefix call's response
  MaybeViolation solo_verdict;  // a prefix call's crash, or finish's verdict
  // A controlled execution runs its prefix on branch 0's thread before the
  // race (no hand-off to and from the checking thread per call), under a
  // one-thread controller of its own.
  std::vector<command_t<S>> prefix;
  std::shared_ptr<Controller> prefix_controller;
  std::mutex prefix_mu;                         // guards prefix_responses
  std::vector<response_t<S>> prefix_responses;  // of the prefix calls that returned
  MaybeViolation prefix_crash;                  // a prefix call threw
  std::atomic<std::size_t> prefix_at{0};        // the prefix call running (or last run)
  std::atomic<bool> prefix_done{true};          // every prefix call returned: the branches run
};

/// `now + span` on the steady clock, saturated at the clock's largest time
/// point (a span of `nanoseconds::max()` would overflow the addition).
inline std::chrono::steady_clock::time_point deadline_after(
    std::chrono::steady_clock::time_point now, std::chrono::nanoseconds span) noexcept {
  using Clock = std::chrono::steady_clock;
  const Clock::duration room = Clock::time_point::max() - now;
  if (span >= std::chrono::duration_cast<std::chrono::nanoseconds>(room)) {
    return Clock::time_point::max();
  }
  return now + std::chrono::duration_cast<Clock::duration>(span);
}

/// Runs `task` alone on a crew thread until `deadline`; false when it
/// missed it (its thread was abandoned).
inline bool run_bounded(Crew& crew, std::function<void()> task,
                        std::chrono::steady_clock::time_point deadline) {
  std::vector<std::function<void()>> tasks;
  tasks.push_back(std::move(task));
  return crew.race(std::move(tasks), deadline).all();
}

/// How a call run alone on the crew ended.
/// `deadlocked_parked`: a deadlock in which the thread did not return (it is
/// parked for good in a `noexcept` wait, `sync::atomic::wait`), so its
/// system stays alive.
enum class Solo : std::uint8_t {
  returned,
  timed_out,
  deadlocked,
  deadlocked_parked,
  livelocked,
  stalled
};

/// Runs `task` alone on a crew thread until `deadline`; under control
/// (`controlled`) as the only thread of a controller, so a call that blocks
/// with nobody left to wake it ends at once as a deadlock, and one that
/// spins past `config.max_steps` as a livelock (`why` says on what),
/// instead of at the deadline.
template <class Task>
Solo run_solo(Crew& crew, bool controlled, const CheckOptions& config,
              std::chrono::steady_clock::time_point deadline, Task task, std::string& why) {
  if (!controlled) {
    if (config.stall_time.count() <= 0) {
      return run_bounded(crew, std::move(task), deadline) ? Solo::returned : Solo::timed_out;
    }
    auto watch = std::make_shared<StallWatch>(1, config.stall_time);
    std::vector<std::function<void()>> tasks;
    tasks.emplace_back([watch, task = std::move(task)]() mutable {
      watch->started(0);
      task();
      watch->finished(0);
    });
    bool stalled = false;
    const bool returned =
        crew.race(std::move(tasks), deadline, [&] { return stalled = watch->stalled(); }).all();
    if (returned) return Solo::returned;
    if (!stalled) return Solo::timed_out;
    why = "likely: it did not return for " +
          std::to_string(
              std::chrono::duration_cast<std::chrono::milliseconds>(config.stall_time).count()) +
          " ms and used no CPU time (blocked); its thread was abandoned";
    return Solo::stalled;
  }
  auto ctl = std::make_shared<Controller>(1, Chooser{}, config.max_steps);
  std::vector<std::function<void()>> tasks;
  tasks.emplace_back([ctl, task = std::move(task)]() mutable {
    ctl->enter(0);
    task();  // catches everything, sync::Cancelled included
    ctl->leave(0);
  });
  const bool returned =
      crew.race(std::move(tasks), deadline, [ctl] { return ctl->stalled(); }).all();
  const RunStatus status = ctl->status();
  if (status == RunStatus::deadlock || status == RunStatus::livelock) {
    why = ctl->description();
    if (status == RunStatus::livelock) return Solo::livelocked;
    return returned ? Solo::deadlocked : Solo::deadlocked_parked;
  }
  if (!returned) {
    ctl->drop();
    return Solo::timed_out;
  }
  return Solo::returned;
}

/// The timeout of a call that missed `config.deadline`; `what` says which.
inline statem::Violation timeout_violation(const std::string& what, const CheckOptions& config) {
  return statem::Violation{
      std::string(kTimeoutTag),
      what + " still running after " +
          std::to_string(
              std::chrono::duration_cast<std::chrono::milliseconds>(config.deadline).count()) +
          " ms; the thread was abandoned and the system left alive (not torn down)"};
}

/// Stress mode's random wait before a call is below this many loop turns
/// (about a cycle each: up to a few tens of nanoseconds, the width of the
/// windows it aims at; a longer wait would spread the calls apart).
inline constexpr std::uint64_t kMaxJitterSpins = 128;

/// Busy-waits `spins` loop turns (no system call, no sleep, no pause
/// instruction: each turn is about one cycle).
inline void spin_for(std::uint64_t spins) noexcept {
  for (std::uint64_t i = 0; i < spins; ++i) {
    std::atomic_signal_fence(std::memory_order_seq_cst);  // keeps the loop
  }
}

/// Runs branch `b` of `arena` (on a crew thread); stops at a crash.
/// Under control the instants are logical (the controller's clock), and the
/// start of each call is a scheduling point.
template <class S>
void run_branch(Arena<S>& arena, std::size_t b) noexcept {
  auto& history = arena.histories[b];
  Controller* ctl = arena.controller.get();
  StallWatch* watch = arena.watch.get();
  if (watch != nullptr) watch->started(b);
  // Stress: a short random wait before each call shifts the branches
  // against each other by a few hundred nanoseconds, differently each time.
  std::uint64_t jitter = arena.jitter_seed == 0 ? 0 : core::mix64(arena.jitter_seed + b);
  for (const command_t<S>& cmd : arena.branches[b]) {
    try {
      if (ctl != nullptr) ctl->point(SyncOp::call, nullptr);
      if (jitter != 0) {
        jitter = core::mix64(jitter);
        spin_for(jitter % kMaxJitterSpins);
      }
      const std::int64_t invoked = ctl != nullptr ? ctl->tick() : invocation_instant();
      response_t<S> response = arena.spec->run(*arena.sut, cmd);
      const std::int64_t returned = ctl != nullptr ? ctl->tick() : return_instant();
      history.push_back({cmd, std::move(response), invoked, returned});
      if (watch != nullptr) watch->progressed();
    } catch (const sync::Cancelled&) {
      return;  // the controlled run ended (a deadlock); the verdict says so
    } catch (...) {
      try {
        arena.crashes[b] = statem::crash_violation("run", std::current_exception());
        arena.crashes[b]->detail +=
            " (branch " + std::to_string(b) + ", command " + core::describe(cmd) + ")";
      } catch (...) {  // NOLINT(bugprone-empty-catch): out of memory; the slot stays empty
      }
      if (watch != nullptr) watch->finished(b);
      return;
    }
  }
  if (watch != nullptr) watch->finished(b);
}

/// Tears the system down; an exception is dropped by contract.
template <class S>
void tear_down(S& spec, std::optional<sut_t<S>>& sut) noexcept {
  if (!sut) return;
  try {
    spec.teardown(*sut);
  } catch (...) {  // NOLINT(bugprone-empty-catch): a teardown crash is discarded by contract
  }
}

/// The verdict of a controlled race that did not end with every branch
/// done: a deadlock, a livelock or a schedule that no longer fits.
inline MaybeViolation controlled_verdict(const Controller& ctl) {
  switch (ctl.status()) {
    case RunStatus::deadlock:
      return statem::Violation{std::string(kDeadlockTag),
                               "every unfinished branch is blocked: " + ctl.description()};
    case RunStatus::livelock:
      return statem::Violation{std::string(kLivelockTag), ctl.description()};
    case RunStatus::running:
    case RunStatus::finished:
    case RunStatus::dropped:
    case RunStatus::foreign:  // controller_verdict's
      break;
  }
  if (ctl.diverged()) {
    return statem::Violation{
        std::string(kNondeterministicTag),
        "the system reached other scheduling points under the same schedule: it depends on "
        "something merilo does not control (the clock, a plain thread, a random draw, state "
        "shared between systems)"};
  }
  return std::nullopt;
}

/// Fills `out` when `ctl` (may be null) ended its run as a usage error
/// (`RunStatus::foreign`) or saw sync misuse; false otherwise.
template <class Cmd, class Resp>
bool controller_verdict(const Controller* ctl, Execution<Cmd, Resp>& out) {
  if (ctl == nullptr) return false;
  if (ctl->status() == RunStatus::foreign) {
    out.usage_error = ctl->description();
    out.violation = statem::Violation{std::string(kUsageErrorTag), out.usage_error};
    out.evidence = Evidence::unrecorded;
    return true;
  }
  if (std::optional<Misuse> m = ctl->misuse()) {
    out.violation = statem::Violation{std::string(m->tag), std::move(m->detail)};
    out.evidence = Evidence::unrecorded;
    return true;
  }
  return false;
}

/// Runs `arena.prefix` on the calling thread (branch 0's, before its
/// branch) under `arena.prefix_controller`, a one-thread controller: a call
/// that blocks with nobody left to wake it ends the prefix as a deadlock,
/// one that spins past `CheckOptions::max_steps` stays parked as a livelock.
/// The branches run only if every call returned (`arena.prefix_done`).
template <class S>
void run_prefix(Arena<S>& arena) noexcept {
  Controller& solo = *arena.prefix_controller;
  solo.enter(0);
  bool returned = true;
  for (std::size_t k = 0; k < arena.prefix.size() && returned; ++k) {
    arena.prefix_at.store(k, std::memory_order_relaxed);
    returned = false;
    statem::guarded("run", arena.prefix_crash, [&] {
      try {
        response_t<S> response = arena.spec->run(*arena.sut, arena.prefix[k]);
        const std::lock_guard lock(arena.prefix_mu);
        arena.prefix_responses.push_back(std::move(response));
        returned = true;
      } catch (const sync::Cancelled&) {  // NOLINT(bugprone-empty-catch)
        // not a crash: the prefix controller's status says deadlock
      }
    });
  }
  solo.leave(0);
  // A prefix call that returned after the check gave up on it (control
  // dropped) does not start the branch: the system was abandoned.
  arena.prefix_done.store(returned && solo.status() != RunStatus::dropped,
                          std::memory_order_release);
}

/// The verdict of a controlled execution whose prefix did not run to its
/// end on branch 0's thread (see `run_prefix`), with `finished0` whether
/// that thread finished its task; false when the prefix ran to its end.
template <class S>
bool prefix_failed(Arena<S>& arena, bool finished0, const CheckOptions& config,
                   Execution<command_t<S>, response_t<S>>& out) {
  if (arena.prefix_done.load(std::memory_order_acquire)) return false;
  Controller& solo = *arena.prefix_controller;
  const std::size_t k = arena.prefix_at.load(std::memory_order_relaxed);
  out.prefix_step = k;
  out.evidence = Evidence::in_prefix;
  {
    const std::lock_guard lock(arena.prefix_mu);
    out.prefix_responses = arena.prefix_responses;
  }
  if (!finished0) {  // never tear down under a thread
    out.left_alive = true;
    if (solo.status() == RunStatus::livelock) {
      out.violation =
          statem::Violation{std::string(kLivelockTag),
                            "prefix call " + std::to_string(k) + ": " + solo.description()};
    } else if (solo.status() == RunStatus::deadlock) {  // parked in a noexcept wait
      out.violation =
          statem::Violation{std::string(kDeadlockTag),
                            "prefix call " + std::to_string(k) +
                                " blocks and no other thread can wake it: " + solo.description()};
    } else {
      solo.drop();
      out.violation = timeout_violation("prefix call " + std::to_string(k), config);
    }
    return true;
  }
  if (arena.prefix_crash) {
    out.violation = std::move(arena.prefix_crash);
  } else {
    out.violation =
        statem::Violation{std::string(kDeadlockTag),
                          "prefix call " + std::to_string(k) +
                              " blocks and no other thread can wake it: " + solo.description()};
  }
  return true;
}

/// Judges the responses of the prefix calls one by one against `model`,
/// which it moves past them; false (with `out` filled) at the first
/// postcondition that fails or callback that throws.
template <class S>
bool judge_prefix(S& s, const std::vector<command_t<S>>& prefix,
                  const std::vector<response_t<S>>& responses, std::optional<model_t<S>>& model,
                  Execution<command_t<S>, response_t<S>>& out);

template <class S>
void judge_histories(S& s, const model_t<S>& model, const CheckOptions& config,
                     Execution<command_t<S>, response_t<S>>& out);

/// Runs the branches on `crew` and judges them; fills `out`. The system is
/// in `arena`; the caller tears it down unless `out.left_alive`. With a
/// `chooser` the branches run one at a time under a `Controller`; with
/// `arena->prefix_controller` set, branch 0's thread runs `arena->prefix`
/// first, and `model` (the model before the prefix) is moved past it here.
template <class S>
void race(const std::shared_ptr<Arena<S>>& arena, Crew& crew, const CheckOptions& config,
          std::optional<model_t<S>>& model, const Chooser* chooser, std::uint64_t jitter_seed,
          Execution<command_t<S>, response_t<S>>& out) {
  const std::size_t n = arena->branches.size();
  arena->histories.resize(n);
  arena->crashes.resize(n);
  for (std::size_t b = 0; b < n; ++b) arena->histories[b].reserve(arena->branches[b].size());
  if (chooser != nullptr) {
    arena->controller = std::make_shared<Controller>(n, *chooser, config.max_steps);
  } else if (config.stall_time.count() > 0) {
    arena->watch = std::make_shared<StallWatch>(n, config.stall_time);
  }
  arena->jitter_seed = chooser == nullptr ? jitter_seed : 0;
  std::vector<std::function<void()>> tasks;
  tasks.reserve(n);
  for (std::size_t b = 0; b < n; ++b) {
    tasks.emplace_back([arena, b] {
      Controller* ctl = arena->controller.get();
      std::vector<const void*> held;  // the mutexes the prefix left locked
      if (b == 0 && arena->prefix_controller) {
        run_prefix(*arena);
        held = arena->prefix_controller->held(0);
      }
      if (ctl != nullptr) ctl->enter(b, held);
      if (arena->prefix_done.load(std::memory_order_acquire)) run_branch(*arena, b);
      if (ctl != nullptr) ctl->leave(b);
    });
  }
  Controller* ctl = arena->controller.get();
  std::function<bool()> stalled;
  bool free_stall = false;
  if (ctl != nullptr) {
    stalled = [ctl, solo = arena->prefix_controller.get()] {
      ctl->look_outside(std::chrono::steady_clock::now());
      return ctl->stalled() || (solo != nullptr && solo->stalled());
    };
  } else if (arena->watch) {
    stalled = [watch = arena->watch, &free_stall] { return free_stall = watch->stalled(); };
  }
  const RaceEnd end = crew.race(
      std::move(tasks), deadline_after(std::chrono::steady_clock::now(), config.deadline), stalled);
  const std::uint8_t had_turn = ctl != nullptr ? ctl->running() : kNoThread;
  if (ctl != nullptr) {
    if (!end.all() && !ctl->stalled()) ctl->drop();
    out.controlled = true;
    out.decisions = ctl->decisions();
    out.sync_points = ctl->sync_points();
  }
  for (std::size_t b = 0; b < n; ++b) {
    if (!end.finished[b]) out.unfinished.push_back(b);
  }
  out.left_alive = !out.unfinished.empty();
  // What could not be controlled, then sync misuse, come first.
  if (controller_verdict(arena->prefix_controller.get(), out) || controller_verdict(ctl, out)) {
    if (!out.left_alive && out.usage_error.empty()) out.histories = arena->histories;
    return;
  }
  if (arena->prefix_controller) {  // the prefix's verdict comes first
    if (prefix_failed(*arena, end.finished[0], config, out)) return;
    if (!judge_prefix(*arena->spec, arena->prefix, arena->prefix_responses, model, out)) return;
  }
  for (std::size_t b = 0; b < n; ++b) {  // a crash outranks a timeout
    if (end.finished[b] && arena->crashes[b]) {
      out.violation = arena->crashes[b];
      out.evidence = Evidence::unrecorded;
      return;
    }
  }
  if (out.left_alive && had_turn != kNoThread) {
    out.violation = statem::Violation{
        std::string(kTimeoutTag),
        "branch " + std::to_string(had_turn) + " had the turn and reached no scheduling point in " +
            std::to_string(
                std::chrono::duration_cast<std::chrono::milliseconds>(config.deadline).count()) +
            " ms (a loop without merilo::sync operations, or a blocking call merilo does not "
            "control: a std::mutex, I/O, a sleep); its thread was abandoned and the system left "
            "alive (not torn down)"};
    out.evidence = Evidence::unrecorded;
    return;
  }
  if (free_stall && out.left_alive) {
    std::string which;
    for (std::size_t b : out.unfinished) which += (which.empty() ? "" : ", ") + std::to_string(b);
    out.violation = statem::Violation{
        std::string(kDeadlockTag),
        "likely deadlock: no call returned for " +
            std::to_string(
                std::chrono::duration_cast<std::chrono::milliseconds>(config.stall_time).count()) +
            " ms and branch " + which +
            " used no CPU time (blocked, on each other or on something that never comes); the "
            "threads were abandoned and the system left alive (not torn down)"};
    out.evidence = Evidence::unrecorded;
    return;
  }
  if (ctl != nullptr) {
    if (MaybeViolation v = controlled_verdict(*ctl)) {
      out.violation = std::move(v);
      out.evidence = Evidence::unrecorded;
      if (!out.left_alive) out.histories = arena->histories;  // the calls that returned
      return;
    }
  }
  if (out.left_alive) {
    std::string which;
    for (std::size_t b : out.unfinished) which += (which.empty() ? "" : ", ") + std::to_string(b);
    out.violation = timeout_violation("branch " + which, config);
    out.evidence = Evidence::unrecorded;
    return;
  }
  out.histories = arena->histories;
  judge_histories(*arena->spec, *model, config, out);
}

/// Judges the race in `out.histories` (every branch returned) from `model`;
/// fills `out.violation` and the evidence when no order fits.
template <class S>
void judge_histories(S& s, const model_t<S>& model, const CheckOptions& config,
                     Execution<command_t<S>, response_t<S>>& out) {
  const Judgement j = judge(s, model, out.histories, config.search_budget);
  switch (j.verdict) {
    case Judged::linearizable:
      return;
    case Judged::not_linearizable:
      out.violation = statem::Violation{std::string(kNotLinearizableTag),
                                        "no order of the branches' calls satisfies the model"};
      break;
    case Judged::undecided:
      out.violation =
          statem::Violation{std::string(kUndecidedTag),
                            j.error.empty() ? "the checker spent CheckOptions::search_budget (" +
                                                  std::to_string(config.search_budget) +
                                                  " evaluations) without deciding"
                                            : "the checker refused the histories: " + j.error};
      break;
    case Judged::crashed:
      out.violation = statem::Violation{
          std::string(statem::kCrashTag),
          "an exception escaped postcondition or next_model while checking the race: " + j.error};
      break;
  }
  out.evidence = Evidence::raced;
  out.explanation = j.explanation;
  out.placed = j.placed;
  out.stuck = j.stuck;
}

template <class S>
bool judge_prefix(S& s, const std::vector<command_t<S>>& prefix,
                  const std::vector<response_t<S>>& responses, std::optional<model_t<S>>& model,
                  Execution<command_t<S>, response_t<S>>& out) {
  for (std::size_t k = 0; k < prefix.size() && k < responses.size(); ++k) {
    out.prefix_step = k;
    out.prefix_responses.push_back(responses[k]);
    const response_t<S>& response = responses[k];
    if (!statem::guarded("postcondition", out.violation,
                         [&] { out.violation = s.postcondition(*model, prefix[k], response); }) ||
        out.violation || !statem::guarded("next_model", out.violation, [&] {
          model_t<S> next = observed_next(s, *model, prefix[k], response, kPrefixCaller);
          model.emplace(std::move(next));
        })) {
      out.evidence = Evidence::in_prefix;
      return false;
    }
  }
  return true;
}

/// One execution of `c` (see the top of this file); controlled when
/// `chooser` is given; free with a random wait before each call when
/// `jitter_seed` is not 0.
template <class S>
Execution<command_t<S>, response_t<S>> execute(const std::shared_ptr<S>& spec, Crew& crew,
                                               const CheckOptions& config,
                                               const Case<command_t<S>>& c,
                                               const Chooser* chooser = nullptr,
                                               std::uint64_t jitter_seed = 0) {
  Execution<command_t<S>, response_t<S>> out;
  S& s = *spec;
  std::optional<model_t<S>> model;
  if (!statem::guarded("initial", out.violation, [&] { model.emplace(s.initial()); })) return out;
  auto arena = std::make_shared<Arena<S>>();
  arena->spec = spec;
  if (!statem::guarded("new_sut", out.violation, [&] { arena->sut.emplace(s.new_sut()); }))
    return out;

  // Under control the prefix runs on branch 0's thread, in the race (see
  // `race`); free, call by call from here, all under one deadline as the
  // branches of a race are.
  const bool prefix_in_race = chooser != nullptr && !c.prefix.empty() && !c.branches.empty();
  if (prefix_in_race) {
    arena->prefix = c.prefix;
    arena->prefix_responses.reserve(c.prefix.size());
    arena->prefix_controller = std::make_shared<Controller>(1, Chooser{}, config.max_steps);
    arena->prefix_done.store(false, std::memory_order_relaxed);
  }
  const auto prefix_deadline = deadline_after(std::chrono::steady_clock::now(), config.deadline);
  for (std::size_t k = 0; !prefix_in_race && k < c.prefix.size() && !out.violation; ++k) {
    out.prefix_step = k;
    const command_t<S>& cmd = c.prefix[k];
    arena->solo_response.reset();
    arena->solo_verdict.reset();
    std::string why;
    const Solo end = run_solo(
        crew, chooser != nullptr, config, prefix_deadline,
        [arena, cmd] {
          statem::guarded("run", arena->solo_verdict, [&] {
            try {
              arena->solo_response.emplace(arena->spec->run(*arena->sut, cmd));
            } catch (const sync::Cancelled&) {  // NOLINT(bugprone-empty-catch)
              // not a crash: run_solo reports the deadlock
            }
          });
        },
        why);
    if (end == Solo::timed_out || end == Solo::stalled) {  // never tear down under a thread
      out.violation =
          end == Solo::timed_out
              ? timeout_violation("prefix call " + std::to_string(k), config)
              : statem::Violation{std::string(kDeadlockTag),
                                  "prefix call " + std::to_string(k) + " blocks, " + why};
      out.evidence = Evidence::in_prefix;
      out.left_alive = true;
      return out;
    }
    if (end == Solo::deadlocked || end == Solo::deadlocked_parked || end == Solo::livelocked) {
      out.violation = end != Solo::livelocked
                          ? statem::Violation{std::string(kDeadlockTag),
                                              "prefix call " + std::to_string(k) +
                                                  " blocks and no other thread can wake it: " + why}
                          : statem::Violation{std::string(kLivelockTag),
                                              "prefix call " + std::to_string(k) + ": " + why};
      // a parked spinner or waiter keeps its system
      out.left_alive = end == Solo::livelocked || end == Solo::deadlocked_parked;
      if (out.left_alive) {
        out.evidence = Evidence::in_prefix;
        return out;
      }
      break;
    }
    if (arena->solo_verdict) {
      out.violation = std::move(arena->solo_verdict);
      break;
    }
    out.prefix_responses.push_back(*arena->solo_response);
    const response_t<S>& response = *arena->solo_response;
    if (!statem::guarded("postcondition", out.violation,
                         [&] { out.violation = s.postcondition(*model, cmd, response); }) ||
        out.violation) {
      break;
    }
    statem::guarded("next_model", out.violation, [&] {
      model_t<S> next = observed_next(s, *model, cmd, response, kPrefixCaller);
      model.emplace(std::move(next));
    });
  }
  if (out.violation) {
    out.evidence = Evidence::in_prefix;
    tear_down(s, arena->sut);
    return out;
  }

  arena->branches = c.branches;
  race(arena, crew, config, model, chooser, jitter_seed, out);
  if (out.left_alive) return out;  // never tear down under a running thread
  if (!out.violation) {
    out.evidence = Evidence::after_race;
    arena->solo_verdict.reset();
    std::string why;
    const Solo end = run_solo(
        crew, chooser != nullptr, config,
        deadline_after(std::chrono::steady_clock::now(), config.deadline),
        [arena] {
          statem::guarded("finish", arena->solo_verdict, [&] {
            try {
              arena->solo_verdict = arena->spec->finish(*arena->sut);
            } catch (const sync::Cancelled&) {  // NOLINT(bugprone-empty-catch)
              // not a crash: run_solo reports the deadlock
            }
          });
        },
        why);
    if (end == Solo::timed_out || end == Solo::livelocked || end == Solo::stalled ||
        end == Solo::deadlocked_parked) {
      // never tear down under a thread
      out.violation =
          end == Solo::timed_out ? timeout_violation("finish", config)
          : end == Solo::stalled
              ? statem::Violation{std::string(kDeadlockTag), "finish blocks, " + why}
          : end == Solo::deadlocked_parked
              ? statem::Violation{std::string(kDeadlockTag),
                                  "finish blocks and no other thread can wake it: " + why}
              : statem::Violation{std::string(kLivelockTag), "finish: " + why};
      out.left_alive = true;
      return out;
    }
    out.violation = end == Solo::deadlocked
                        ? statem::Violation{std::string(kDeadlockTag),
                                            "finish blocks and no other thread can wake it: " + why}
                        : std::move(arena->solo_verdict);
  }
  tear_down(s, arena->sut);
  return out;
}

}  // namespace merilo::parallel::detail

#endif  // MERILO_PARALLEL_DETAIL_EXECUTE_INL_HPP
