// merilo/parallel/detail/stress_inl.hpp — stress mode's batches: many free
// executions of one case in one race on the crew, for systems that cannot
// use merilo::sync (docs/design/stress-mode.md).
//
// The checking thread builds one system per execution, then hands each
// branch's thread one task that runs every execution of the batch in turn:
// branch 0's thread runs the execution's prefix, the threads meet at a
// spinning barrier, and each waits until its own start instant (the
// release instant, plus a lag that lets every thread leave the barrier,
// plus a fresh random offset of its own) before it runs its branch. Starting
// at instants on one clock, rather than "as soon as the barrier lets me
// go", puts the branches at a uniformly random phase against each other,
// which is what a race a few instructions wide needs; and no thread is
// woken through the kernel between two executions. After the batch the
// checking thread judges the executions in order (prefix, race, `finish`,
// run by branch 0's thread at the end of the batch) and stops at the first
// that failed. Each execution also says whether its branches overlapped in
// time at all: one whose branches ran one after another raced nothing.
#ifndef MERILO_PARALLEL_DETAIL_STRESS_INL_HPP
#define MERILO_PARALLEL_DETAIL_STRESS_INL_HPP

#include <algorithm>  // std::sort, std::clamp
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>  // std::this_thread::yield at the barrier
#include <utility>
#include <vector>

#include <merilo/core/hash.hpp>  // core::mix64 draws the start offsets
#include <merilo/parallel/detail/crew.hpp>
#include <merilo/parallel/detail/execute_inl.hpp>
#include <merilo/parallel/failure.hpp>
#include <merilo/statem/guard.hpp>

namespace merilo::parallel::detail {

/// What stress mode learns from one batch for the next: how long the
/// threads take to leave the barrier (`lag_ns`) and over how wide a span
/// their start offsets are drawn (`spread_ns`, about a branch's length).
struct StressTuning {
  std::int64_t lag_ns = 2'000;
  std::int64_t spread_ns = 400;
};

/// Executions in one stress batch at most (its systems are built up front).
inline constexpr std::size_t kMaxStressBatch = 256;

/// A branch's thread waits at the barrier this many turns before yielding.
inline constexpr int kStressSpinsBeforeYield = 1 << 16;

/// What one batch found.
template <class Cmd, class Resp>
struct StressBatch {
  std::optional<Execution<Cmd, Resp>> failure;  ///< The first execution that failed.
  std::size_t executions = 0;                   ///< Executions judged.
  std::size_t raced = 0;  ///< Of those, executions whose branches overlapped in time.
};

/// What a batch's threads share (owned through a shared pointer by every
/// task, so an abandoned thread keeps it alive).
template <class S>
struct StressArena {
  std::shared_ptr<S> spec;
  std::vector<command_t<S>> prefix;
  std::vector<std::vector<command_t<S>>> branches;
  std::size_t n = 0;                                            // branches
  std::size_t count = 0;                                        // executions
  std::vector<std::optional<sut_t<S>>> suts;                    // [i]
  std::vector<std::vector<response_t<S>>> prefix_responses;     // [i]
  std::vector<MaybeViolation> prefix_crash;                     // [i]
  std::vector<History<command_t<S>, response_t<S>>> histories;  // [i * n + b]
  std::vector<MaybeViolation> crashes;                          // [i * n + b]
  std::vector<MaybeViolation> finish;                           // [i]
  std::vector<std::int64_t> offset;                             // [i * n + b]
  std::vector<std::int64_t> late;  // [i * n + b]: left the barrier this long after release
  std::int64_t lag_ns = 0;
  std::shared_ptr<StallWatch> watch;
  // The barrier.
  std::atomic<std::size_t> arrived{0};
  std::atomic<std::size_t> generation{0};
  std::atomic<std::int64_t> released_at{0};
  std::atomic<bool> stop{false};  // set before a barrier; read after it
  // Where the batch is: how many executions' branches started, how many
  // are to be judged once all ran, and whether branch 0's thread is in a
  // prefix call (of execution `prefix_of`) or in `finish`.
  std::atomic<std::size_t> started{0};
  std::atomic<std::size_t> ran{0};
  std::atomic<bool> in_prefix{false};
  std::atomic<std::size_t> prefix_of{0};
  std::atomic<std::size_t> prefix_step{0};
  std::atomic<bool> in_finish{false};
};

/// The barrier of a batch: the last of `n` threads to arrive releases the
/// others and stamps the release instant.
template <class S>
void stress_meet(StressArena<S>& a, std::size_t generation) noexcept {
  if (a.arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == a.n) {
    a.arrived.store(0, std::memory_order_relaxed);
    a.released_at.store(now_ns(), std::memory_order_relaxed);
    a.generation.store(generation + 1, std::memory_order_release);
    return;
  }
  for (int spins = 0; a.generation.load(std::memory_order_acquire) == generation; ++spins) {
    if (spins >= kStressSpinsBeforeYield) std::this_thread::yield();
  }
}

/// Runs the prefix of execution `i` on the calling thread (branch 0's);
/// false when a call threw (the batch stops after this execution).
template <class S>
bool stress_prefix(StressArena<S>& a, std::size_t i) noexcept {
  a.prefix_of.store(i, std::memory_order_relaxed);
  a.in_prefix.store(true, std::memory_order_release);
  bool ok = true;
  for (std::size_t k = 0; k < a.prefix.size() && ok; ++k) {
    a.prefix_step.store(k, std::memory_order_relaxed);
    ok = statem::guarded("run", a.prefix_crash[i], [&] {
      a.prefix_responses[i].push_back(a.spec->run(*a.suts[i], a.prefix[k]));
    });
    if (a.watch) a.watch->progressed();
  }
  a.in_prefix.store(false, std::memory_order_release);
  return ok;
}

/// Branch `b`'s task: every execution of the batch in turn, then (branch
/// 0) `finish` on each system whose branches ran without a crash.
template <class S>
void stress_task(StressArena<S>& a, std::size_t b) noexcept {
  StallWatch* watch = a.watch.get();
  if (watch != nullptr) {
    watch->started(b);
    watch->between(b, true);
  }
  std::size_t generation = 0;
  std::size_t judged = 0;  // branch 0: the executions to judge
  for (std::size_t i = 0; i < a.count; ++i) {
    if (b == 0) {
      if (watch != nullptr) watch->between(b, false);
      if (!stress_prefix(a, i)) a.stop.store(true, std::memory_order_relaxed);
      if (watch != nullptr) watch->between(b, true);
    }
    stress_meet(a, generation++);
    if (a.stop.load(std::memory_order_relaxed)) {
      // A crashed prefix is this execution's verdict; a crashed branch was
      // the previous execution's.
      if (b == 0 && a.prefix_crash[i]) judged = i + 1;
      break;
    }
    if (b == 0) {
      judged = i + 1;
      a.started.store(i + 1, std::memory_order_release);
    }
    // Start at release + lag + this thread's offset, on the shared clock.
    const std::int64_t released = a.released_at.load(std::memory_order_relaxed);
    const std::int64_t left = now_ns();
    a.late[i * a.n + b] = left - released;
    const std::int64_t start = released + a.lag_ns + a.offset[i * a.n + b];
    while (now_ns() < start) {
      std::atomic_signal_fence(std::memory_order_seq_cst);  // keeps the loop
    }
    if (watch != nullptr) watch->between(b, false);
    auto& history = a.histories[i * a.n + b];
    for (const command_t<S>& cmd : a.branches[b]) {
      try {
        const std::int64_t invoked = invocation_instant();
        response_t<S> response = a.spec->run(*a.suts[i], cmd);
        const std::int64_t returned = return_instant();
        history.push_back({cmd, std::move(response), invoked, returned});
        if (watch != nullptr) watch->progressed();
      } catch (...) {
        try {
          a.crashes[i * a.n + b] = statem::crash_violation("run", std::current_exception());
          a.crashes[i * a.n + b]->detail +=
              " (branch " + std::to_string(b) + ", command " + core::describe(cmd) + ")";
        } catch (...) {  // NOLINT(bugprone-empty-catch): out of memory; the slot stays empty
        }
        a.stop.store(true, std::memory_order_relaxed);
        break;
      }
    }
    if (watch != nullptr) watch->between(b, true);
  }
  stress_meet(a, generation);  // every branch of every execution is done
  if (b != 0) return;
  const std::size_t ran = judged;
  a.ran.store(ran, std::memory_order_release);
  if (watch != nullptr) watch->between(b, false);
  a.in_finish.store(true, std::memory_order_release);
  for (std::size_t i = 0; i < ran; ++i) {
    bool crashed = a.prefix_crash[i].has_value();
    for (std::size_t k = 0; k < a.n; ++k) crashed = crashed || a.crashes[i * a.n + k].has_value();
    if (crashed) continue;
    a.prefix_of.store(i, std::memory_order_relaxed);
    statem::guarded("finish", a.finish[i], [&] { a.finish[i] = a.spec->finish(*a.suts[i]); });
    if (watch != nullptr) watch->progressed();
  }
  a.in_finish.store(false, std::memory_order_release);
  if (watch != nullptr) watch->finished(b);
}

/// Whether two branches' calls overlapped in time (some call of one was
/// invoked before some call of another returned, and the other way round).
template <class H>
bool overlapped(const H* histories, std::size_t n) {
  for (std::size_t x = 0; x < n; ++x) {
    for (std::size_t y = x + 1; y < n; ++y) {
      const H& p = histories[x];
      const H& q = histories[y];
      if (p.empty() || q.empty()) continue;
      if (p.front().invoked_at < q.back().returned_at &&
          q.front().invoked_at < p.back().returned_at) {
        return true;
      }
    }
  }
  return false;
}

/// The median of `v` (0 when empty).
inline std::int64_t median_of(std::vector<std::int64_t> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Judges execution `i` of a finished batch into `out`; true when it failed.
template <class S>
bool judge_stress_execution(StressArena<S>& a, std::size_t i, const model_t<S>& initial,
                            const CheckOptions& config,
                            Execution<command_t<S>, response_t<S>>& out) {
  S& s = *a.spec;
  std::optional<model_t<S>> model(initial);
  if (a.prefix_crash[i]) {
    out.violation = a.prefix_crash[i];
    out.evidence = Evidence::in_prefix;
    out.prefix_step = a.prefix_responses[i].size();
    out.prefix_responses = a.prefix_responses[i];
    return true;
  }
  if (!judge_prefix(s, a.prefix, a.prefix_responses[i], model, out)) return true;
  for (std::size_t b = 0; b < a.n; ++b) {
    if (a.crashes[i * a.n + b]) {
      out.violation = a.crashes[i * a.n + b];
      out.evidence = Evidence::unrecorded;
      return true;
    }
  }
  out.histories.assign(a.histories.begin() + static_cast<std::ptrdiff_t>(i * a.n),
                       a.histories.begin() + static_cast<std::ptrdiff_t>((i + 1) * a.n));
  judge_histories(s, *model, config, out);
  if (out.violation) return true;
  if (a.finish[i]) {
    out.violation = a.finish[i];
    out.evidence = Evidence::after_race;
    return true;
  }
  return false;
}

/// The verdict of a batch whose threads did not all finish: a stall (a
/// likely deadlock) or the deadline, in execution `i`'s prefix, race or
/// `finish`.
template <class S>
void unfinished_batch(StressArena<S>& a, const RaceEnd& end, bool stalled,
                      const CheckOptions& config, Execution<command_t<S>, response_t<S>>& out) {
  out.left_alive = true;
  out.evidence = Evidence::unrecorded;
  for (std::size_t b = 0; b < end.finished.size(); ++b) {
    if (!end.finished[b]) out.unfinished.push_back(b);
  }
  std::string where;
  if (a.in_prefix.load(std::memory_order_acquire)) {
    out.evidence = Evidence::in_prefix;
    out.prefix_step = a.prefix_step.load(std::memory_order_relaxed);
    where = "prefix call " + std::to_string(out.prefix_step);
  } else if (a.in_finish.load(std::memory_order_acquire)) {
    out.evidence = Evidence::after_race;
    where = "finish";
  } else {
    for (std::size_t b : out.unfinished) where += (where.empty() ? "" : ", ") + std::to_string(b);
    where = "branch " + where;
    // The stuck execution's prefix ran before its branches were released.
    const std::size_t started = a.started.load(std::memory_order_acquire);
    if (started > 0) {
      out.prefix_responses = a.prefix_responses[started - 1];
      out.prefix_step = out.prefix_responses.size();
    }
  }
  const auto ms = [](std::chrono::nanoseconds t) {
    return std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(t).count());
  };
  if (!stalled) {
    out.violation = timeout_violation(where, config);
    return;
  }
  out.violation = statem::Violation{
      std::string(kDeadlockTag),
      "likely deadlock: " + where +
          " blocked (in waits only another thread could end, or used no CPU time for " +
          ms(config.stall_time) +
          " ms) and no call returned; the threads were abandoned and the system left alive (not "
          "torn down)"};
}

/// Runs up to `count` executions of `c` in one batch (see the top of this
/// file), the offsets drawn from `seed`; `tuning` is read and updated.
template <class S>
StressBatch<command_t<S>, response_t<S>> stress_batch(const std::shared_ptr<S>& spec, Crew& crew,
                                                      const CheckOptions& config,
                                                      const Case<command_t<S>>& c,
                                                      std::size_t count, std::uint64_t seed,
                                                      StressTuning& tuning) {
  using Exec = Execution<command_t<S>, response_t<S>>;
  StressBatch<command_t<S>, response_t<S>> out;
  S& s = *spec;
  Exec early;
  std::optional<model_t<S>> initial;
  if (!statem::guarded("initial", early.violation, [&] { initial.emplace(s.initial()); })) {
    out.failure = std::move(early);
    out.executions = 1;
    return out;
  }
  auto a = std::make_shared<StressArena<S>>();
  a->spec = spec;
  a->prefix = c.prefix;
  a->branches = c.branches;
  a->n = c.branches.size();
  a->count = std::clamp<std::size_t>(count, 1, kMaxStressBatch);
  a->suts.resize(a->count);
  for (std::size_t i = 0; i < a->count; ++i) {
    if (!statem::guarded("new_sut", early.violation, [&] { a->suts[i].emplace(s.new_sut()); })) {
      for (std::size_t k = 0; k < i; ++k) tear_down(s, a->suts[k]);
      out.failure = std::move(early);
      out.executions = 1;
      return out;
    }
  }
  const std::size_t slots = a->count * a->n;
  a->prefix_responses.resize(a->count);
  for (auto& r : a->prefix_responses) r.reserve(c.prefix.size());
  a->prefix_crash.resize(a->count);
  a->histories.resize(slots);
  for (std::size_t i = 0; i < slots; ++i) a->histories[i].reserve(c.branches[i % a->n].size());
  a->crashes.resize(slots);
  a->finish.resize(a->count);
  a->late.assign(slots, 0);
  a->offset.resize(slots);
  std::uint64_t draw = core::mix64(seed | 1U);
  const auto spread = static_cast<std::uint64_t>(std::max<std::int64_t>(tuning.spread_ns, 1));
  for (std::size_t k = 0; k < slots; ++k) {
    draw = core::mix64(draw + k);
    a->offset[k] = static_cast<std::int64_t>(draw % spread);
  }
  a->lag_ns = tuning.lag_ns;
  if (config.stall_time.count() > 0) {
    a->watch = std::make_shared<StallWatch>(a->n, config.stall_time);
  }
  std::vector<std::function<void()>> tasks;
  tasks.reserve(a->n);
  for (std::size_t b = 0; b < a->n; ++b) tasks.emplace_back([a, b] { stress_task(*a, b); });
  bool stalled = false;
  std::function<bool()> give_up;
  if (a->watch) give_up = [watch = a->watch, &stalled] { return stalled = watch->stalled(); };
  const RaceEnd end = crew.race(
      std::move(tasks), deadline_after(std::chrono::steady_clock::now(), config.deadline), give_up);

  const bool all = end.all();
  // Executions before the one in progress are complete (their branches
  // passed a barrier since); judge those first.
  // (Stuck in a prefix or a branch of execution k: those before k - 1 are
  // surely done; stuck in `finish`: every execution's branches ran.)
  std::size_t complete = a->ran.load(std::memory_order_acquire);
  if (!all && !a->in_finish.load(std::memory_order_acquire)) {
    const std::size_t started = a->started.load(std::memory_order_acquire);
    complete = started > 0 ? started - 1 : 0;
  }
  for (std::size_t i = 0; i < complete; ++i) {
    // A batch that did not finish never ran `finish`: judge races only.
    if (!all) a->finish[i].reset();
    Exec e;
    const bool failed = judge_stress_execution(*a, i, *initial, config, e);
    ++out.executions;
    if (overlapped(&a->histories[i * a->n], a->n)) ++out.raced;
    if (failed) {
      e.left_alive = !all;
      out.failure = std::move(e);
      break;
    }
  }
  if (!out.failure && !all) {
    Exec e;
    unfinished_batch(*a, end, stalled, config, e);
    ++out.executions;
    out.failure = std::move(e);
  }
  if (all) {
    for (auto& sut : a->suts) tear_down(s, sut);
    // Learn for the next batch: the lag covers most threads' exit from the
    // barrier; the offsets spread over about two branches' length.
    std::vector<std::int64_t> spans;
    for (std::size_t i = 0; i < complete; ++i) {
      for (std::size_t b = 0; b < a->n; ++b) {
        const auto& h = a->histories[i * a->n + b];
        if (!h.empty()) spans.push_back(h.back().returned_at - h.front().invoked_at);
      }
    }
    const std::int64_t late = median_of(std::vector<std::int64_t>(
        a->late.begin(), a->late.begin() + static_cast<std::ptrdiff_t>(complete * a->n)));
    if (complete > 0) tuning.lag_ns = std::clamp<std::int64_t>(2 * late + 200, 300, 5'000);
    if (!spans.empty()) {
      tuning.spread_ns = std::clamp<std::int64_t>(2 * median_of(std::move(spans)), 100, 100'000);
    }
  }
  return out;
}

}  // namespace merilo::parallel::detail

#endif  // MERILO_PARALLEL_DETAIL_STRESS_INL_HPP
