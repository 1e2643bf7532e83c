// merilo/parallel/detail/execute_inl.hpp — one execution of a case: a fresh
// system, the prefix call by call, the race on the crew, the checker's
// verdict, `finish`, and `teardown` unless a thread is still running.
//
// Every call into the system (`run` in the prefix and in the race, and
// `finish`) runs on a crew thread under a deadline, never on the checking
// thread: a call that never returns is abandoned with its thread and
// reported as `statem.timeout`, so no case can hang the check.
#ifndef MERILO_PARALLEL_DETAIL_EXECUTE_INL_HPP
#define MERILO_PARALLEL_DETAIL_EXECUTE_INL_HPP

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <merilo/parallel/detail/crew.hpp>
#include <merilo/parallel/detail/generate_inl.hpp>
#include <merilo/parallel/detail/judge.hpp>
#include <merilo/parallel/failure.hpp>
#include <merilo/statem/guard.hpp>

namespace merilo::parallel::detail {

/// What one execution found.
template <class Cmd, class Resp>
struct Outcome {
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
};

/// Nanoseconds on the steady clock.
inline std::int64_t now_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// What the racing threads share; owned through a shared pointer by every
/// task, so an abandoned task keeps the system and the spec alive.
template <class S>
struct Arena {
  std::shared_ptr<S> spec;
  std::optional<sut_of<S>> sut;
  std::vector<std::vector<command_of<S>>> branches;
  std::vector<History<command_of<S>, response_of<S>>> histories;  // one per branch
  std::vector<MaybeViolation> crashes;                            // one per branch
  std::optional<response_of<S>> solo_response;                    // a prefix call's response
  MaybeViolation solo_verdict;  // a prefix call's crash, or finish's verdict
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

/// The timeout of a call that missed `config.deadline`; `what` says which.
inline statem::Violation timeout_violation(const std::string& what, const CheckConfig& config) {
  return statem::Violation{
      std::string(kTimeoutTag),
      what + " still running after " +
          std::to_string(
              std::chrono::duration_cast<std::chrono::milliseconds>(config.deadline).count()) +
          " ms; the thread was abandoned and the system left alive (not torn down)"};
}

/// Runs branch `b` of `arena` (on a crew thread); stops at a crash.
template <class S>
void run_branch(Arena<S>& arena, std::size_t b) noexcept {
  auto& history = arena.histories[b];
  for (const command_of<S>& cmd : arena.branches[b]) {
    try {
      const std::int64_t invoked = now_ns();
      response_of<S> response = arena.spec->run(*arena.sut, cmd);
      const std::int64_t returned = now_ns();
      history.push_back({cmd, std::move(response), invoked, returned});
    } catch (...) {
      try {
        arena.crashes[b] = statem::crash_violation("run", std::current_exception());
        arena.crashes[b]->detail +=
            " (branch " + std::to_string(b) + ", command " + core::describe(cmd) + ")";
      } catch (...) {  // NOLINT(bugprone-empty-catch): out of memory; the slot stays empty
      }
      return;
    }
  }
}

/// Tears the system down; an exception is dropped by contract.
template <class S>
void tear_down(S& spec, std::optional<sut_of<S>>& sut) noexcept {
  if (!sut) return;
  try {
    spec.teardown(*sut);
  } catch (...) {  // NOLINT(bugprone-empty-catch): a teardown crash is discarded by contract
  }
}

/// Runs the branches on `crew` and judges them; fills `out`. The system is
/// in `arena`; the caller tears it down unless `out.left_alive`.
template <class S>
void race(const std::shared_ptr<Arena<S>>& arena, Crew& crew, const CheckConfig& config,
          const model_of<S>& model, Outcome<command_of<S>, response_of<S>>& out) {
  const std::size_t n = arena->branches.size();
  arena->histories.resize(n);
  arena->crashes.resize(n);
  for (std::size_t b = 0; b < n; ++b) arena->histories[b].reserve(arena->branches[b].size());
  std::vector<std::function<void()>> tasks;
  tasks.reserve(n);
  for (std::size_t b = 0; b < n; ++b) {
    tasks.emplace_back([arena, b] { run_branch(*arena, b); });
  }
  const RaceEnd end = crew.race(std::move(tasks),
                                deadline_after(std::chrono::steady_clock::now(), config.deadline));
  for (std::size_t b = 0; b < n; ++b) {
    if (!end.finished[b]) out.unfinished.push_back(b);
  }
  out.left_alive = !out.unfinished.empty();
  for (std::size_t b = 0; b < n; ++b) {  // a crash outranks a timeout
    if (end.finished[b] && arena->crashes[b]) {
      out.violation = arena->crashes[b];
      out.evidence = Evidence::unrecorded;
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
  const Judgement j = judge(*arena->spec, model, out.histories, config.search_budget);
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
                            j.error.empty() ? "the checker spent CheckConfig::search_budget (" +
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

/// One execution of `c` (see the top of this file).
template <class S>
Outcome<command_of<S>, response_of<S>> execute(const std::shared_ptr<S>& spec, Crew& crew,
                                               const CheckConfig& config,
                                               const Case<command_of<S>>& c) {
  Outcome<command_of<S>, response_of<S>> out;
  S& s = *spec;
  std::optional<model_of<S>> model;
  if (!statem::guarded("initial", out.violation, [&] { model.emplace(s.initial()); })) return out;
  auto arena = std::make_shared<Arena<S>>();
  arena->spec = spec;
  if (!statem::guarded("new_sut", out.violation, [&] { arena->sut.emplace(s.new_sut()); }))
    return out;

  // The whole prefix shares one deadline, as the branches of a race do.
  const auto prefix_deadline = deadline_after(std::chrono::steady_clock::now(), config.deadline);
  for (std::size_t k = 0; k < c.prefix.size() && !out.violation; ++k) {
    out.prefix_step = k;
    const command_of<S>& cmd = c.prefix[k];
    arena->solo_response.reset();
    arena->solo_verdict.reset();
    const bool returned = run_bounded(
        crew,
        [arena, cmd] {
          statem::guarded("run", arena->solo_verdict, [&] {
            arena->solo_response.emplace(arena->spec->run(*arena->sut, cmd));
          });
        },
        prefix_deadline);
    if (!returned) {  // never tear down under a running thread
      out.violation = timeout_violation("prefix call " + std::to_string(k), config);
      out.evidence = Evidence::in_prefix;
      out.left_alive = true;
      return out;
    }
    if (arena->solo_verdict) {
      out.violation = std::move(arena->solo_verdict);
      break;
    }
    out.prefix_responses.push_back(*arena->solo_response);
    const response_of<S>& response = *arena->solo_response;
    if (!statem::guarded("postcondition", out.violation,
                         [&] { out.violation = s.postcondition(*model, cmd, response); }) ||
        out.violation) {
      break;
    }
    statem::guarded("next_model", out.violation, [&] {
      model_of<S> next = s.next_model(*model, cmd);
      model.emplace(std::move(next));
    });
  }
  if (out.violation) {
    out.evidence = Evidence::in_prefix;
    tear_down(s, arena->sut);
    return out;
  }

  arena->branches = c.branches;
  race(arena, crew, config, *model, out);
  if (out.left_alive) return out;  // never tear down under a running thread
  if (!out.violation) {
    out.evidence = Evidence::after_race;
    arena->solo_verdict.reset();
    const bool returned = run_bounded(
        crew,
        [arena] {
          statem::guarded("finish", arena->solo_verdict,
                          [&] { arena->solo_verdict = arena->spec->finish(*arena->sut); });
        },
        deadline_after(std::chrono::steady_clock::now(), config.deadline));
    if (!returned) {  // never tear down under a running thread
      out.violation = timeout_violation("finish", config);
      out.left_alive = true;
      return out;
    }
    out.violation = std::move(arena->solo_verdict);
  }
  tear_down(s, arena->sut);
  return out;
}

}  // namespace merilo::parallel::detail

#endif  // MERILO_PARALLEL_DETAIL_EXECUTE_INL_HPP
