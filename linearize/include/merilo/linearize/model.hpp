// merilo/linearize/model.hpp — what a model and a spec must be for the
// linearizability checkers.
//
// Both checkers (`check` for a few short per-thread histories, and
// `check_history` for long recorded ones) judge calls against a sequential
// *model*: a plain value the checker copies, hashes and compares, so it can
// remember which (progress, model) states it has already ruled out. The
// behaviour is given by a *spec*, an object with two const member functions:
//
//   std::optional<V> postcondition(const M& model, const C& cmd, const R& rsp) const;
//   M next_model(const M& model, const C& cmd) const;
//
// `postcondition` returns nothing when `rsp` is a response the object in
// state `model` may give to `cmd`, or a violation `V` (any copyable value:
// a string, the parallel tester's own violation type) saying why not.
// `next_model` is the state after `cmd` took effect. Both must be pure: the
// checker calls them in any order, many times, on copies.
//
// When the next state depends on what the call returned (a bag's remove,
// a set's pop of any element, a try_dequeue that may report empty), or on
// who made it (each producer's items leave in that producer's order), the
// spec's `next_model` takes the response, and the caller too if it needs it:
//
//   M next_model(const M& model, const C& cmd, const R& rsp) const;
//   M next_model(const M& model, const C& cmd, const R& rsp, linearize::Caller who) const;
//
// The checkers call the widest form the spec has, and only after
// `postcondition` accepted `rsp`. The caller is the history's index in
// `check` and `Operation::process` in `check_history`. A spec may keep the
// two-argument form beside a wider one: it is then the step of a call whose
// response is unknown (an operation that never returned; parallel's case
// generation, which runs nothing).
//
// Example (from docs/examples/linearize_custom_model.cpp, where it is
// compiled and checked):
//
// clang-format off
//   struct Counter {
//     std::int64_t value = 0;
//     friend bool operator==(const Counter&, const Counter&) = default;
//   };
//   enum class Op : std::uint8_t { increment, read };
//   struct CounterSpec {
//     std::optional<std::string> postcondition(const Counter& m, Op op, std::int64_t got) const {
//       if (op == Op::read && got != m.value) {
//         return "read " + std::to_string(got) + ", counter was " + std::to_string(m.value);
//       }
//       return std::nullopt;
//     }
//     Counter next_model(const Counter& m, Op op) const {
//       return op == Op::increment ? Counter{m.value + 1} : m;
//     }
//   };
// clang-format on
//
// NOTE: `Counter` above is `fsm::ByteHashable` (trivially copyable, no
// padding), so its bytes are its identity. A model holding a std::string, a
// std::deque or padding instead supplies `feed` (see `fsm::FeedsBytes`),
// which hands the bytes that identify its value to a sink. The checkers
// refuse, at compile time, a model that is neither.
//
// NOTE: the state cache counts each model it keeps against its cap as
// sizeof(M) plus the bytes `feed` hands over. A model whose heap memory is
// much larger than that (a std::deque allocates half a kilobyte even when
// empty) may say how much it holds with a member
// `std::size_t heap_bytes() const`, which the cache then counts instead;
// QueueModel and KvModel do.
#ifndef MERILO_LINEARIZE_MODEL_HPP
#define MERILO_LINEARIZE_MODEL_HPP

#include <concepts>     // std::copyable, std::equality_comparable
#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint64_t
#include <optional>     // postcondition results
#include <string>       // SearchResult::error
#include <type_traits>  // std::remove_cvref_t
#include <utility>      // std::declval

#include <merilo/core/traits.hpp>  // core::is_optional_v
#include <merilo/fsm/fsm.hpp>      // fsm::ByteHashable, fsm::FeedsBytes
#include <merilo/fsm/world.hpp>

namespace merilo::linearize {

/// A model state the checkers can remember: copyable, comparable with `==`,
/// and hashable by its bytes (`fsm::ByteHashable`) or through `feed`
/// (`fsm::FeedsBytes`).
///
/// NOTE: `==` must agree with the bytes: two models that feed the same bytes
/// must compare equal. The checkers compare exactly after a hash match, so a
/// hash collision never merges two different states.
template <class M>
concept Model = std::copyable<M> && std::equality_comparable<M> &&
    (fsm::ByteHashable<M> || fsm::FeedsBytes<M>);

/// Who made a call, as a spec's four-argument `next_model` sees it: the
/// history's index in `check`, `Operation::process` in `check_history`, the
/// branch's index in merilo::parallel.
using Caller = std::size_t;

/// The spec moves its model from the command alone: `next_model(model, cmd)`.
template <class S, class M, class C>
concept StepsOnCommand = requires(const S& spec, const M& model, const C& cmd) {
  { spec.next_model(model, cmd) } -> std::convertible_to<M>;
};

/// The spec's next state depends on the response:
/// `next_model(model, cmd, response)`.
template <class S, class M, class C, class R>
concept StepsOnResponse = requires(const S& spec, const M& model, const C& cmd, const R& response) {
  { spec.next_model(model, cmd, response) } -> std::convertible_to<M>;
};

/// The spec's next state depends on the response and on who called:
/// `next_model(model, cmd, response, caller)`.
template <class S, class M, class C, class R>
concept StepsOnCaller = requires(const S& spec, const M& model, const C& cmd, const R& response,
                                 Caller caller) {
  { spec.next_model(model, cmd, response, caller) } -> std::convertible_to<M>;
};

/// A spec for model `M`, command `C` and response `R`: a `postcondition`
/// returning `std::optional<V>` and a `next_model` of one of the three
/// forms above returning an `M`.
template <class S, class M, class C, class R>
concept SpecFor = (StepsOnCommand<S, M, C> || StepsOnResponse<S, M, C, R> ||
                   StepsOnCaller<S, M, C, R>)&&requires(const S& spec, const M& model, const C& cmd,
                                                        const R& response) {
  requires core::is_optional_v<
      std::remove_cvref_t<decltype(spec.postcondition(model, cmd, response))>>;
};

/// The model after `cmd`, answered `response`, by `caller`: the widest
/// `next_model` form `spec` has (caller, then response, then command only).
template <class S, class M, class C, class R>
requires SpecFor<S, M, C, R>
[[nodiscard]] M advance(const S& spec, const M& model, const C& cmd, const R& response,
                        Caller caller) {
  if constexpr (StepsOnCaller<S, M, C, R>) {
    return spec.next_model(model, cmd, response, caller);
  } else if constexpr (StepsOnResponse<S, M, C, R>) {
    return spec.next_model(model, cmd, response);
  } else {
    return spec.next_model(model, cmd);
  }
}

/// The violation type `V` of a spec: what its `postcondition` returns inside
/// the optional.
template <class S, class M, class C, class R>
using violation_t = typename std::remove_cvref_t<decltype(std::declval<const S&>().postcondition(
    std::declval<const M&>(), std::declval<const C&>(), std::declval<const R&>()))>::value_type;

/// What a check concluded.
enum class Verdict : std::uint8_t {
  linearizable,      ///< An order was found; `CheckResult::order` holds it.
  not_linearizable,  ///< Every order was ruled out; the explanation says where it stuck.
  undecided,         ///< The budget (or time) ran out first. Never a pass.
  usage_error,       ///< The input broke a rule of the API; `error` says which.
  crashed,           ///< A spec or model function threw; `error` holds its message.
};

/// "linearizable", "not linearizable", "undecided", "usage error", "crashed".
[[nodiscard]] const char* name(Verdict v) noexcept;

/// Why a check ended undecided.
enum class SearchStop : std::uint8_t {
  none,     ///< It did not: the verdict is final.
  budget,   ///< The budget of evaluations was spent.
  timeout,  ///< The time limit passed (`HistoryOptions::timeout`).
};

/// What every check's result says, whichever checker ran: `check` returns
/// a `CheckResult<V>` and `check_history` a `HistoryResult<V>`, both built on
/// this.
struct SearchResult {
  Verdict verdict = Verdict::undecided;  ///< What the check concluded.
  SearchStop stop = SearchStop::none;    ///< When undecided: what ran out.
  std::uint64_t evaluations = 0;         ///< Model evaluations spent.
  std::size_t cache_entries = 0;         ///< States remembered (ruled out or visited).
  std::string error;                     ///< Set for usage_error and crashed.

  /// True only for `linearizable`.
  [[nodiscard]] bool ok() const noexcept { return verdict == Verdict::linearizable; }
};

}  // namespace merilo::linearize

#endif  // MERILO_LINEARIZE_MODEL_HPP
