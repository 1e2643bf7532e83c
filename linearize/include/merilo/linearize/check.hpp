// merilo/linearize/check.hpp — is a short concurrent run linearizable?
//
// `check(spec, initial, histories, budget)` takes one history per thread —
// that thread's calls in the order it made them, each with its command, its
// response and the instants it was invoked and returned — and looks for one
// order of all the calls that
//
//   * keeps each thread's own order,
//   * respects real time: a call that returned strictly before another was
//     invoked comes first (equal instants overlap, the safe reading for a
//     coarse clock), and
//   * satisfies the spec's postcondition at every step, starting from
//     `initial` and moving the model with `next_model` (which may see the
//     response and the caller, the thread's index: see model.hpp).
//
// The answer is `linearizable` with the order found, `not_linearizable` with
// the deepest dead end (the longest prefix it could place, and for each
// thread's next call either the violation its postcondition gave or the call
// that overtook it, and which of those calls no valid order places at all),
// or `undecided` once `budget` postcondition evaluations
// are spent (`stop == SearchStop::budget`) — which is a failure, never a
// pass.
//
// This is the checker for a few threads making a few calls each, such as a
// test that races threads against a concurrent object and records what each
// call returned and when. For long histories recorded from real systems
// (many processes, operations that never returned) use `check_history` in
// history.hpp, which scales further.
//
// Example (compiled in docs/examples/linearize_check.cpp, with a register
// model `Reg`, commands `Cmd{write, value}` and its `RegSpec`): thread 0
// wrote 1 during [0, 10]; thread 1 read 1 during [2, 5], then 0 during
// [6, 12].
//
// clang-format off
//   std::vector<lin::History<Cmd, std::int64_t>> threads = {
//       {{Cmd{true, 1}, 0, 0, 10}},
//       {{Cmd{false, 0}, 1, 2, 5}, {Cmd{false, 0}, 0, 6, 12}},
//   };
//   auto result = lin::check(RegSpec{}, Reg{0}, threads, /*budget=*/10'000);
//   // result.verdict == Verdict::not_linearizable: once 1 was read, 0 cannot be.
// clang-format on
//
// How it searches: depth first over each thread's next call, remembering
// every (positions in each history, model) state it has ruled out. That
// memo is sound because nothing else decides what can still happen, and it
// is why models must be hashable, comparable values (see model.hpp): states
// are hashed with XXH3 and compared exactly when the hashes match.
//
// NOTE: `check` never throws. Calls with `returned_at < invoked_at`, or a
// thread whose call starts before its previous one returned, are a
// `usage_error`; an exception thrown by the spec or the model ends the
// check as `crashed` with its message. The memo holds at most one entry per
// evaluation, so memory is bounded by the budget.
#ifndef MERILO_LINEARIZE_CHECK_HPP
#define MERILO_LINEARIZE_CHECK_HPP

#include <cstddef>   // std::size_t
#include <cstdint>   // std::int64_t, std::uint64_t
#include <optional>  // NextCall::violation
#include <span>      // the histories
#include <string>    // CheckResult::error
#include <vector>    // History, orders

#include <merilo/linearize/model.hpp>

namespace merilo::linearize {

/// One call a thread made: what it asked, what it got, and when.
///
/// Instants are in any one monotonic unit (`steady_clock` nanoseconds, say).
template <class C, class R>
struct Call {
  C command;                     ///< What the thread asked for.
  R response;                    ///< What it got back.
  std::int64_t invoked_at = 0;   ///< Read just before the call.
  std::int64_t returned_at = 0;  ///< Read just after it returned.
};

/// One thread's calls, in the order it made them.
template <class C, class R>
using History = std::vector<Call<C, R>>;

/// Names a call: `index` within history `history` (both from 0).
struct CallRef {
  /// Which history (thread).
  std::size_t history = 0;
  /// Which call of that history.
  std::size_t index = 0;
  /// The same call.
  friend bool operator==(const CallRef&, const CallRef&) = default;
};

/// Why a thread's next call could not be placed at a dead end.
enum class Blocked : std::uint8_t {
  violated,   ///< Its postcondition failed against the model there.
  overtaken,  ///< Another thread's call returned before it was invoked.
  explored,   ///< Placing it leads only to states already ruled out.
};

/// One thread's next call at a dead end, and why it could not go next.
template <class V>
struct NextCall {
  CallRef call;  ///< The call that could not be placed.
  /// Why it could not be placed.
  Blocked why = Blocked::violated;
  std::optional<V> violation;  ///< Set when `why == violated`.
  CallRef overtaken_by;        ///< Meaningful when `why == overtaken`.
};

/// The deepest dead end of a failed search: the longest prefix that could be
/// placed, then one entry per thread that still had calls left.
template <class V>
struct Explanation {
  std::vector<CallRef> prefix;    ///< Placed calls, in order.
  std::vector<NextCall<V>> next;  ///< Each unfinished thread's next call.
  /// Not linearizable: the first call of `next` that no valid order places
  /// anywhere, the one to look at (a stale read, say, while the other
  /// threads' calls only fail because it cannot go first). Empty when each
  /// of them fits some valid order and they only fail together.
  std::optional<CallRef> unplaceable;
};

/// What `check` found: the fields of every check's result (`SearchResult`:
/// verdict, stop, evaluations, cache_entries — the ruled-out states
/// remembered —, error, ok()) and the order or dead end.
template <class V>
struct CheckResult : SearchResult {
  /// When linearizable: every call, in an order that satisfies the model.
  std::vector<CallRef> order;
  /// When not linearizable: the deepest dead end. When undecided: the
  /// longest prefix placed before the budget ran out (`next` is empty).
  Explanation<V> explanation;
};

/// Checks that `histories` (one per thread) are linearizable with respect to
/// `spec` from `initial`, spending at most `budget` postcondition
/// evaluations, and returns a `CheckResult<V>` (`V` = `violation_t<S, M, C, R>`).
/// See the top of this file.
///
/// NOTE: a model that is not a `Model`, or a spec that is not a
/// `SpecFor<S, M, C, R>`, is refused at compile time with a message saying
/// what is missing.
template <class S, class M, class C, class R>
[[nodiscard]] auto check(const S& spec, const M& initial, std::span<const History<C, R>> histories,
                         std::uint64_t budget) noexcept;

/// The same, for a vector of histories.
template <class S, class M, class C, class R>
[[nodiscard]] auto check(const S& spec, const M& initial,
                         const std::vector<History<C, R>>& histories,
                         std::uint64_t budget) noexcept;

}  // namespace merilo::linearize

#include <merilo/linearize/detail/check_inl.hpp>

#endif  // MERILO_LINEARIZE_CHECK_HPP
