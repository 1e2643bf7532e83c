// merilo/parallel/spec.hpp — what the parallel tester needs to know about a
// concurrent system, what a test case is, and how a check runs.
//
// A parallel `Spec` is statem's sequential spec with one twist: the system
// is shared. `run(sut, cmd)` is called from two or three threads at once on
// the same system (a thread-safe object, or a handle to one), and the
// responses are judged afterwards, by asking whether some sequential order
// of the calls, consistent with when they happened, is one the model
// allows (linearizability, decided by merilo::linearize).
//
// A `Case` is a sequential `prefix` (it sets the system up, call by call)
// followed by `branches`, each a list of commands that one thread runs
// while the others run theirs. `CheckOptions` says how many cases to draw and
// how big they may be.
//
// Example (a counter shared by the threads):
//
//   struct CounterSpec {
//     using model_type = CounterModel;           // a linearize::Model
//     using command_type = Op;                   // core::Describable
//     using response_type = std::int64_t;        // core::Describable
//     using sut_type = std::unique_ptr<Counter>; // the threads share what it points to
//     CounterModel initial() const { return {}; }
//     statem::Gen<Op> command(const CounterModel&) const {
//       return statem::element_of<Op>({Op::inc, Op::get});
//     }
//     statem::Admission precondition(const CounterModel&, Op) const {
//       return statem::Admission::admit;
//     }
//     CounterModel next_model(const CounterModel& m, Op op) const;
//     sut_type new_sut() const { return std::make_unique<Counter>(); }
//     std::int64_t run(sut_type& c, Op op) const {
//       return op == Op::inc ? c->increment() : c->get();
//     }
//     parallel::MaybeViolation postcondition(const CounterModel&, Op, std::int64_t) const;
//     parallel::MaybeViolation finish(sut_type&) const { return std::nullopt; }
//     void teardown(sut_type&) const {}
//   };
//
// (docs/examples/parallel_counter.cpp is this spec, complete and compiled.)
//
// Models that see the response and the caller. When the state after a call
// depends on what it returned (a bag's remove takes out the element it
// returned) or on who made it (each producer's items leave in its order),
// `next_model` may take the response, and the caller as well:
//
//   model_type next_model(const model_type&, const command_type&, const response_type&);
//   model_type next_model(const model_type&, const command_type&, const response_type&,
//                         linearize::Caller who);
//
// The caller of a branch's calls is the branch's index (0, 1, 2), and of
// the prefix's calls `kPrefixCaller`. Case generation runs nothing, so it
// has no responses: it moves the model with the two-argument `next_model`
// when the spec has one too, and otherwise keeps the model it started from
// (`initial()` for the prefix, the post-prefix model for every branch).
// Such a spec draws commands that need no model, and a branch that must
// draw values no other branch draws (distinct items for a bag) takes its
// index: `command(model, linearize::Caller branch)` is called instead of
// `command(model)` when the spec has it, with `kPrefixCaller` for the prefix.
// That index says who drew a command; shrinking may move the command to
// another branch or into the prefix, so a model learns who ran a call from
// `next_model`'s caller, never from what was drawn.
// (docs/examples/parallel_bag.cpp is a bag spec written so, complete and
// compiled.)
//
// NOTE: each prefix call runs on a runner thread that is not any branch's.
// For a system that keeps per-thread state (a queue with a producer slot
// per thread, say), what the prefix did is then another thread's doing;
// see docs/parallel.md.
//
// NOTE: `run` is called concurrently, from the runner's threads, on one
// spec object and one system; the prefix's `run` calls and `finish` are
// also made on a runner thread (one at a time, so a call that never
// returns can be abandoned); every other callback is called from the
// thread that called `check`, one at a time. The model must be a
// `linearize::Model` (copyable, `==`, hashable by its bytes or `feed`):
// the checker remembers the states it has ruled out.
#ifndef MERILO_PARALLEL_SPEC_HPP
#define MERILO_PARALLEL_SPEC_HPP

#include <chrono>       // CheckOptions::deadline
#include <concepts>     // the Spec concept
#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint64_t
#include <functional>   // CheckOptions::shrink_stop
#include <optional>     // MaybeViolation, CheckOptions::seed
#include <string_view>  // tag constants
#include <type_traits>  // std::remove_cvref_t
#include <vector>       // Case

#include <merilo/core/describe.hpp>    // commands and responses are printed through describe
#include <merilo/linearize/model.hpp>  // linearize::Model, linearize::Caller
#include <merilo/statem/gen.hpp>       // Gen, Rng
#include <merilo/statem/statem.hpp>    // Violation, Admission, ShrinkStop
#include <merilo/sync/tags.hpp>        // the controlled runs' misuse tags

namespace merilo::parallel {

/// How shrinking a failing case ended.
enum class ShrinkEnd : std::uint8_t {
  converged,  ///< No single candidate (see shrink.hpp) fails the same way.
  bound_hit,  ///< `max_shrinks`, the abandoned-thread cap or `shrink_stop` ended it early.
  /// Free threads: no candidate failed within its retries, but the failure
  /// itself needed several executions to appear, so a candidate may still
  /// fail with more.
  out_of_retries,
};

/// "converged", "bound hit", "out of retries".
[[nodiscard]] std::string_view name(ShrinkEnd end) noexcept;

/// What `postcondition` and `finish` return: nothing when the rule held, or
/// the violation found (statem's type, so one spec's checks serve both).
using statem::MaybeViolation;

// Violation tags. What only a concurrent check can find (a non-linearizable
// race, a deadlock, a misused lock under control, ...) is tagged
// `parallel.*`; what a spec's own code does wrong in either tester keeps
// statem's tag (`statem::kCrashTag`, a postcondition's own tag).

/// The branches' histories have no order the model allows.
inline constexpr std::string_view kNotLinearizableTag = "parallel.not_linearizable";
/// The checker spent `CheckOptions::search_budget` before deciding (a failure,
/// never a pass).
inline constexpr std::string_view kUndecidedTag = "parallel.undecided";
/// A branch, a prefix call or `finish` was still running when
/// `CheckOptions::deadline` passed.
inline constexpr std::string_view kTimeoutTag = "parallel.timeout";
/// Under a controlled scheduler, every unfinished branch was blocked.
inline constexpr std::string_view kDeadlockTag = "parallel.deadlock";
/// Under a controlled scheduler, an execution reached
/// `CheckOptions::max_steps` scheduling points.
inline constexpr std::string_view kLivelockTag = "parallel.livelock";
/// Under a controlled scheduler, the same schedule made the system take
/// other decisions: it depends on something merilo does not control.
inline constexpr std::string_view kNondeterministicTag = "parallel.nondeterministic";
/// Under a controlled scheduler, a thread unlocked a `sync` mutex that
/// another thread holds.
inline constexpr std::string_view kUnlockNotOwnedTag = sync::kUnlockNotOwnedTag;
/// Under a controlled scheduler, a thread unlocked a `sync` mutex that no
/// thread holds (a second unlock).
inline constexpr std::string_view kDoubleUnlockTag = sync::kDoubleUnlockTag;
/// Under a controlled scheduler, a thread waited on a `sync`
/// condition_variable without holding the lock it passed.
inline constexpr std::string_view kWaitWithoutLockTag = sync::kWaitWithoutLockTag;
/// Under a controlled scheduler, a `sync` mutex was destroyed while a
/// thread held it.
inline constexpr std::string_view kDestroyedLockedTag = sync::kDestroyedLockedTag;
/// Threads a check may abandon (calls that never returned) before it stops
/// shrinking: each holds a system alive.
inline constexpr std::size_t kMaxAbandonedThreads = 32;
/// PCT depths are at most this.
inline constexpr std::size_t kMaxPctDepth = 16;
/// Generation ended with fewer than two non-empty branches: nothing raced.
inline constexpr std::string_view kNoRaceTag = "parallel.no_race";

/// Branches per case are clamped into [kMinBranches, kMaxBranches].
inline constexpr std::size_t kMinBranches = 2;
/// See `kMinBranches`.
inline constexpr std::size_t kMaxBranches = 3;
/// The caller a spec's `next_model(model, cmd, response, caller)` and
/// `command(model, caller)` are given for the prefix's calls (branches are
/// 0, 1, 2): one past the last branch, so it is never a branch's.
inline constexpr linearize::Caller kPrefixCaller = kMaxBranches;
/// `CheckOptions::max_branch` is clamped into [kMinBranchLength, kMaxBranchLength].
inline constexpr std::size_t kMinBranchLength = 1;
/// See `kMinBranchLength`.
inline constexpr std::size_t kMaxBranchLength = 6;
/// Interleavings of the branches that admissibility enumerates at most;
/// a draw with more has its longest branch trimmed.
inline constexpr std::size_t kMaxInterleavings = 10'000;
/// Redraws of the branches after the first draw, before trimming.
inline constexpr std::size_t kMaxRedraws = 8;
/// The largest `CheckOptions::max_prefix` a check accepts (each prefix call
/// is a hand-off to a runner thread; a longer prefix is a usage error).
inline constexpr std::size_t kMaxPrefixLimit = 10'000;

/// The model type of spec `S` (`S::model_type`; `S` may carry cv-ref
/// qualifiers), spelled as statem's `statem::model_t` is.
template <class S>
using model_t = typename std::remove_cvref_t<S>::model_type;
/// The command type of spec `S` (`S::command_type`).
template <class S>
using command_t = typename std::remove_cvref_t<S>::command_type;
/// The response type of spec `S` (`S::response_type`).
template <class S>
using response_t = typename std::remove_cvref_t<S>::response_type;
/// The system-under-test type of spec `S` (`S::sut_type`).
template <class S>
using sut_t = typename std::remove_cvref_t<S>::sut_type;

/// `s.next_model(model, cmd)`: the model moves from the command alone.
template <class S>
concept StepsOnCommand = requires(S& s, const typename S::model_type& m,
                                  const typename S::command_type& c) {
  { s.next_model(m, c) } -> std::convertible_to<typename S::model_type>;
};

/// `s.next_model(model, cmd, response)`: the next state depends on the response.
template <class S>
concept StepsOnResponse = requires(S& s, const typename S::model_type& m,
                                   const typename S::command_type& c,
                                   const typename S::response_type& r) {
  { s.next_model(m, c, r) } -> std::convertible_to<typename S::model_type>;
};

/// `s.next_model(model, cmd, response, caller)`: the next state depends on
/// the response and on who called (a branch's index, or `kPrefixCaller`).
template <class S>
concept StepsOnCaller = requires(S& s, const typename S::model_type& m,
                                 const typename S::command_type& c,
                                 const typename S::response_type& r, linearize::Caller who) {
  { s.next_model(m, c, r, who) } -> std::convertible_to<typename S::model_type>;
};

/// `s.command(model, branch)`: each branch (and the prefix, as
/// `kPrefixCaller`) draws knowing which it is.
template <class S>
concept DrawsPerBranch = requires(S& s, const typename S::model_type& m, linearize::Caller who) {
  { s.command(m, who) } -> std::convertible_to<statem::Gen<typename S::command_type>>;
};

/// What the parallel tester needs to know about a system under test.
///
/// A spec is a class with four member types and ten member functions
/// (called on a non-const lvalue, so they may be const or not):
///
///   model_type     a `linearize::Model`: copyable, `==`, hashable;
///   command_type   a copyable value, printable through `core::describe`;
///   response_type  what `run` returns: copyable, printable the same way;
///   sut_type       the system (move-constructible); the threads share it,
///                  so it is usually a pointer or a handle.
///
///   initial()                         -> model_type
///   command(model)                    -> statem::Gen<command_type>
///     or command(model, branch)       (`DrawsPerBranch`)
///   precondition(model, cmd)          -> statem::Admission
///   next_model(model, cmd)            -> model_type      pure
///     or next_model(model, cmd, resp) (`StepsOnResponse`), or
///     next_model(model, cmd, resp, caller) (`StepsOnCaller`); a spec may
///     have the two-argument form beside a wider one (see the top of this
///     file)
///   new_sut()                         -> sut_type         a fresh system
///   run(sut&, cmd)                    -> response_type    called concurrently
///   postcondition(model, cmd, resp)   -> MaybeViolation   pure; `model` is before cmd
///   finish(sut&)                      -> MaybeViolation   end-state checks after a
///                                                         linearizable race
///   teardown(sut&)                    -> void             release the system
///
/// NOTE: `postcondition` and `next_model` are called by the checker many
/// times, in any order, on copies of the model: they must be pure.
template <class S>
concept Spec = requires {
  typename S::model_type;
  typename S::command_type;
  typename S::response_type;
  typename S::sut_type;
}
&&linearize::Model<typename S::model_type>&& std::copyable<typename S::command_type>&&
    std::copyable<typename S::response_type>&& std::move_constructible<typename S::sut_type>&&
        core::Describable<typename S::command_type>&&
            core::Describable<typename S::response_type>&& requires(
                S& s, const typename S::model_type& m, const typename S::command_type& c,
                const typename S::response_type& r, typename S::sut_type& sut) {
  { s.initial() } -> std::convertible_to<typename S::model_type>;
  requires DrawsPerBranch<S> || requires {
    { s.command(m) } -> std::convertible_to<statem::Gen<typename S::command_type>>;
  };
  { s.precondition(m, c) } -> std::same_as<statem::Admission>;
  requires StepsOnCommand<S> || StepsOnResponse<S> || StepsOnCaller<S>;
  { s.new_sut() } -> std::convertible_to<typename S::sut_type>;
  { s.run(sut, c) } -> std::convertible_to<typename S::response_type>;
  { s.postcondition(m, c, r) } -> std::same_as<MaybeViolation>;
  { s.finish(sut) } -> std::same_as<MaybeViolation>;
  s.teardown(sut);
};

/// A test case: a sequential prefix, then branches raced on one thread each.
template <class Cmd>
struct Case {
  std::vector<Cmd> prefix;                 ///< Run first, call by call, each response checked.
  std::vector<std::vector<Cmd>> branches;  ///< Run at the same moment, one thread each.

  /// Equal prefixes and equal branches (when commands have `==`).
  friend bool operator==(const Case&, const Case&) = default;
};

/// Who decides the interleaving of a race.
///
/// The controlled schedulers need a system written against merilo::sync
/// (merilo/sync/sync.hpp): its operations are where they switch threads.
enum class Scheduler : std::uint8_t {
  /// `preemption_bounded` for a case whose first controlled execution
  /// reached a merilo::sync operation; `stress` for one that did not.
  automatic,
  /// Every schedule with 0 preemptions, then 1, ... up to
  /// `CheckOptions::preemption_bound` (CHESS): the first failing schedule
  /// has the fewest preemptions. At most `CheckOptions::schedules` per case.
  preemption_bounded,
  /// `CheckOptions::schedules` schedules per case, each a PCT draw
  /// (random priorities with `pct_depth - 1` change points).
  pct,
  /// `CheckOptions::schedules` schedules per case, each choice uniform.
  random,
  /// No control, built to race: many executions per race on fresh
  /// systems, each thread starting its branch at its own random instant
  /// after a shared barrier; a case runs until `CheckOptions::stress_time`
  /// has passed and at least `repeat` executions overlapped in time
  /// (docs/design/stress-mode.md).
  /// For systems that cannot use merilo::sync (third-party code, system
  /// calls).
  stress,
  /// No control: the threads run free, released together; exactly
  /// `repeat` executions per case.
  os,
};

/// Whether `scheduler` runs the threads one at a time (preemption_bounded,
/// pct, random); `automatic` decides per case, `stress` and `os` run free.
[[nodiscard]] constexpr bool is_controlled(Scheduler scheduler) noexcept {
  return scheduler == Scheduler::preemption_bounded || scheduler == Scheduler::pct ||
         scheduler == Scheduler::random;
}

/// "automatic", "preemption-bounded", "pct", "random", "stress", "os".
[[nodiscard]] std::string_view name(Scheduler scheduler) noexcept;

/// How a check runs. Build it with designated initialisers:
///   parallel::CheckOptions{.seed = 42, .test_count = 200}
///
/// NOTE: `branches` and `max_branch` are clamped (into
/// [kMinBranches, kMaxBranches] and [kMinBranchLength, kMaxBranchLength]);
/// a failure records the values actually used. Every other field out of
/// range is a usage error.
struct CheckOptions {
  /// Required: a check without a seed is a usage error. Any 64-bit value.
  std::optional<std::uint64_t> seed = std::nullopt;
  /// Cases drawn per check; at least 1.
  std::size_t test_count = 100;
  /// Branches per case (2 or 3; clamped).
  std::size_t branches = 2;
  /// The prefix has a length drawn uniformly in [0, max_prefix];
  /// max_prefix is at most kMaxPrefixLimit.
  std::size_t max_prefix = 6;
  /// Each branch has a length drawn uniformly in [1, max_branch] (clamped
  /// into 1..6) before admissibility may trim it.
  std::size_t max_branch = 4;
  /// Executions the shrinker may spend (retries included). Under a
  /// controlled scheduler each candidate's whole schedule search counts as
  /// one.
  std::size_t max_shrinks = 500;
  /// Executions of a shrink candidate before it is given up, when the
  /// threads run free: it is accepted as soon as one of them fails with the
  /// original tag. 0 is treated as 1. (Under control a candidate's
  /// schedules are searched instead: it fails or not, deterministically.)
  std::size_t shrink_retries = 10;
  /// Who decides the interleavings (see `Scheduler`).
  Scheduler scheduler = Scheduler::automatic;
  /// The largest preemption count `Scheduler::preemption_bounded` tries.
  std::size_t preemption_bound = 2;
  /// Controlled executions of one case at most (each a schedule); at least 1.
  std::size_t schedules = 2000;
  /// PCT's depth: the bugs it aims at need this many ordering constraints
  /// (1..kMaxPctDepth).
  std::size_t pct_depth = 3;
  /// Scheduling points one controlled execution may reach before it is a
  /// livelock; at least 1.
  std::size_t max_steps = 100'000;
  /// Executions of a generated case before it counts as passing, when the
  /// threads run free (`Scheduler::os`; under `Scheduler::stress`, at least
  /// this many whose branches overlapped in time); at least 1.
  std::size_t repeat = 3;
  /// `Scheduler::stress`: how long one case keeps running (executions until
  /// this much time has passed since the case began, or a failure).
  std::chrono::nanoseconds stress_time = std::chrono::milliseconds(20);
  /// Free runs: when no call has returned for this long and the racing
  /// threads use no CPU time, they are blocked: a likely deadlock, reported
  /// without waiting for `deadline`. Zero turns the watch off.
  std::chrono::nanoseconds stall_time = std::chrono::milliseconds(200);
  /// Asked before each shrink execution; `stop_shrinking` keeps the best
  /// case so far. Empty means always keep shrinking.
  std::function<statem::ShrinkStop()> shrink_stop = nullptr;
  /// How long the branches of one race may run; the prefix as a whole, and
  /// `finish`, each have the same bound (under a controlled scheduler the
  /// prefix runs in the race, and the two share it). Positive;
  /// `nanoseconds::max()` means no deadline (the arithmetic saturates).
  std::chrono::nanoseconds deadline = std::chrono::seconds(10);
  /// Postcondition evaluations the linearizability checker may spend on one
  /// race; at least 1.
  std::uint64_t search_budget = 100'000;
};

}  // namespace merilo::parallel

#endif  // MERILO_PARALLEL_SPEC_HPP
