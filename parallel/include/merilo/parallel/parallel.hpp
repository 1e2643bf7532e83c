// merilo/parallel/parallel.hpp — concurrent model-based testing on real
// threads, judged by linearizability, with shrinking.
//
// `check(spec, config)` draws `config.test_count` cases. Each case is a
// sequential prefix, grown from the model like a statem list, and two or
// three branches, each drawn from the model after the prefix as if it ran
// alone. An execution builds a fresh system, runs the prefix call by call
// (checking each response against the model), then races the branches:
// one thread per branch, all released together by a spinning start
// barrier, every call timed with steady_clock. The histories go to
// `linearize::check` with the post-prefix model: a race is good when some
// order of all the calls, keeping each branch's order and real time, is
// one the model allows. After a good race `finish` checks the end state.
//
// A case passes after `config.repeat` good free executions, or when its
// controlled schedules are all searched (see the scheduler note below).
// The first failing case is shrunk (drop a branch, merge two, delete a
// command or two neighbouring ones from a branch or the prefix, move a
// branch's first command into the prefix: shrink.hpp), each candidate
// tried up to `shrink_retries` times free or once by schedule search, and
// reported with the evidence of its last failure.
//
// Example:
//
//   auto r = merilo::parallel::check(CounterSpec{}, {.seed = 42});
//   if (!r.error.empty()) ...                 // a usage error
//   if (r.failure) std::puts(merilo::parallel::report(*r.failure).c_str());
//
// Violation tags: the spec's own for a prefix postcondition or `finish`;
// `parallel.not_linearizable`, `parallel.undecided`, `parallel.timeout`,
// `statem.crash` and `parallel.no_race` otherwise, and under a controlled
// scheduler `parallel.deadlock`, `parallel.livelock`, `parallel.nondeterministic`
// and the sync::mutex misuse tags (spec.hpp). All bad races
// share `parallel.not_linearizable`, so shrinking may move from one race bug
// to another; the shrunk case is still a real failure.
//
// Admissibility: a case is run only if every precondition holds in every
// interleaving of its branches (enumerated while there are at most
// `kMaxInterleavings`; past that generation trims the longest branch). A
// draw that is inadmissible, or has fewer than two non-empty branches, is
// redrawn up to `kMaxRedraws` times and then trimmed command by command. A
// case that still has fewer than two non-empty branches fails at once as
// `parallel.no_race`: preconditions that admit no concurrent pair are
// reported, never passed.
//
// NOTE: who decides the interleaving is `CheckOptions::scheduler`. With the
// default (`automatic`), a system written against merilo::sync (sync.hpp)
// is run one thread at a time and its schedules are searched in order of
// preemption count, so a race is found, shrunk and pinned deterministically
// however narrow its window; a system with no merilo::sync operation runs
// under stress (free threads, jitter, many executions within
// `stress_time`), where the seed fixes the case but not the interleaving.
// No pause needs to be planted in a window either way.
//
// NOTE: C++ cannot stop a thread. A branch still running at
// `config.deadline` fails the run as `parallel.timeout`, and so does a prefix
// that has not finished by then (evidence "in prefix") or a `finish` that
// has not returned: every call into the system runs on a runner thread,
// never on the checking thread. The stuck thread is abandoned, and its
// system is left alive (no `teardown`, no destructor) until the stuck call
// returns, if it ever does. The check itself returns and the test process
// carries on. (The other callbacks, which see only models and generators,
// plus `new_sut` and `teardown`, run on the checking thread unbounded.)
// The spec is copied (or moved) once per check into storage the threads
// share, so the stuck call's spec outlives `check` too.
//
// NOTE: exceptions escaping any callback become `statem.crash` violations
// naming the callback (in `teardown` they are dropped; in `shrink_stop` they
// stop shrinking). Nothing throws out of these functions but
// `std::bad_alloc`. Each entry point refuses re-entry from inside a
// callback (`core::kReentryError`), on the checking thread and the racing
// threads alike.
#ifndef MERILO_PARALLEL_PARALLEL_HPP
#define MERILO_PARALLEL_PARALLEL_HPP

#include <cstddef>      // std::size_t
#include <optional>     // CheckResult::failure
#include <string>       // usage errors
#include <string_view>  // pin tokens
#include <type_traits>  // std::remove_cvref_t

#include <merilo/parallel/failure.hpp>
#include <merilo/parallel/spec.hpp>

namespace merilo::parallel {

/// What `check` and `check_run` found.
template <class Cmd, class Resp>
struct CheckResult {
  /// A usage error ("CheckOptions::seed is required", ...): nothing ran, or,
  /// under a controlled scheduler, the system did something the scheduler
  /// cannot control (a merilo::sync operation from a thread that is not a
  /// branch, a branch blocked in a std::mutex a switched-out branch holds),
  /// and the check stopped there.
  std::string error;
  /// Runs drawn (the failing one included).
  std::size_t runs = 0;
  /// Executions of every run (repeats and shrink attempts).
  std::size_t executions = 0;
  /// The first failing run, shrunk; empty when every run passed.
  std::optional<Failure<Cmd, Resp>> failure;
  /// Controlled executions (schedules) of the drawn cases.
  std::size_t schedules = 0;
  /// Cases searched by preemption bound, and the number of rounds that
  /// every one of them completed: when it is k > 0, every schedule with at
  /// most k - 1 preemptions of each of those cases was checked.
  std::size_t bounded_cases = 0;
  std::size_t rounds_done = 0;  ///< See `bounded_cases`.
  /// Cases run free (`Scheduler::stress` or `os`: their system reached no
  /// merilo::sync operation, or the config chose it).
  std::size_t free_cases = 0;

  /// No usage error and no failure.
  [[nodiscard]] bool ok() const noexcept { return error.empty() && !failure; }
};

/// What `generate_case` returns: run `run`'s case, or why there is none.
template <class Cmd>
struct Generated {
  std::string error;  ///< A usage error; nothing was drawn.
  Case<Cmd> drawn;    ///< The case exactly as the run draws it.
  /// Set when a callback threw while drawing (the case is cut there).
  MaybeViolation crash;
};

/// Draws and runs up to `config.test_count` cases; shrinks the first
/// failing one.
template <class S>
requires Spec<std::remove_cvref_t<S>>
[[nodiscard]] CheckResult<command_t<S>, response_t<S>> check(S&& spec, const CheckOptions& config);

/// Runs run `run` of the check `config` describes, alone (and shrinks it if
/// it fails): the same case as in `check`. The race may go differently.
template <class S>
requires Spec<std::remove_cvref_t<S>>
[[nodiscard]] CheckResult<command_t<S>, response_t<S>> check_run(S&& spec,
                                                                 const CheckOptions& config,
                                                                 std::size_t run);

/// The case run `run` draws, without building a system or starting a
/// thread. Equal to that run's `Failure::original`.
template <class S>
requires Spec<std::remove_cvref_t<S>>
[[nodiscard]] Generated<command_t<S>> generate_case(S&& spec, const CheckOptions& config,
                                                    std::size_t run);

/// Runs the case and schedule a failure's `pin_token` names, once (a
/// token of a failure found with free threads: up to
/// `config.shrink_retries` free executions). `config` gives the deadline,
/// budgets and limits; the seed and generation settings come from the
/// token. A controlled token replays under the controlled scheduler
/// whatever its branch count, so a case shrunk to one branch deadlocks or
/// livelocks as it did. The result has a failure while the bug is there; a
/// token that does not rebuild exactly the case it was made for (cut short,
/// edited, or the spec's generator changed: its check does not match) is a
/// usage error.
template <class S>
requires Spec<std::remove_cvref_t<S>>
[[nodiscard]] CheckResult<command_t<S>, response_t<S>> replay(S&& spec, std::string_view token,
                                                              const CheckOptions& config = {});

namespace detail {
/// The usage error of `config` ("" when it is usable).
[[nodiscard]] std::string config_error(const CheckOptions& config);
/// `config` with `branches` and `max_branch` clamped.
[[nodiscard]] CheckOptions clamped(const CheckOptions& config);
}  // namespace detail

}  // namespace merilo::parallel

#include <merilo/parallel/detail/check_inl.hpp>
#include <merilo/parallel/sequential.hpp>  // statem's entry points take a parallel spec

#endif  // MERILO_PARALLEL_PARALLEL_HPP
