// merilo/linearize/history.hpp — is a long recorded history linearizable?
//
// `check_history(spec, initial, operations, options)` judges a history
// recorded from a real system: tens of processes, thousands of operations,
// some of which never returned. Each `Operation` has its command, its
// response (or none, when the caller never learned it: a timeout, a crash)
// and its invoke and return instants; an operation without a response is
// treated as never having returned, so it may take effect at any moment
// after its invoke, or not at all.
//
// It uses what the literature on checking recorded histories does:
//
//   * P-compositionality: when the spec has a member
//       std::string partition(const C& cmd) const;
//     the history is split by that key (a key-value store's key) and each
//     part is checked on its own from `initial`, because a history of
//     independent objects is linearizable exactly when each object's is.
//   * The Wing & Gong search with Lowe's memo: operations sit in a list of
//     call and return events sorted by time; the search walks it, places an
//     operation only while no operation still unplaced has returned earlier
//     (so it is tried just in time, at the last moment it still can be),
//     and backs up when it meets such a return.
//   * Read-only calls. When the spec has a member
//       bool read_only(const C& cmd, const std::optional<R>& response) const;
//     saying that a call leaves every model it fits unchanged (a read, a
//     failed cas), such a call is placed as soon as it fits, without
//     trying the orders that place it later: they can only do as well.
//   * Lost values. When the spec declares the model's one value and what
//     each call reads and writes of it,
//       T value_of(const M& model) const;
//       std::optional<T> reads_value(const C& cmd, const std::optional<R>& response) const;
//       std::optional<T> writes_value(const C& cmd, const std::optional<R>& response) const;
//     (a call fits only when the value is what it reads; after it the
//     value is the one before or what it writes), a placement after which
//     a value some completed call still needs can never be written again
//     is refused. With also
//       bool sets_value(const C& cmd, const std::optional<R>& response) const;
//     (true: the value after the call is always what it writes), a read
//     whose every writer was overwritten, in real time, before the read
//     began is found before any search. RegisterSpec declares all four.
//   * Sequence values. When the model's value is a sequence (a string, a
//     list) that calls read whole, replace, or extend at its end, and the
//     spec says so,
//       T sequence_of(const M& model) const;
//       std::optional<T> reads_sequence(const C& cmd, const std::optional<R>& response) const;
//       std::optional<T> sets_sequence(const C& cmd, const std::optional<R>& response) const;
//       std::optional<T> extends_sequence(const C& cmd, const std::optional<R>& response) const;
//     (a completed call fits only when the value is exactly what it
//     reads; after a call the value is what it sets, or the one before
//     followed by what it extends by, or else the one before; T is a
//     totally ordered random-access range, a view into the command or
//     response given is fine), a placement after which some completed
//     read still to place can never see its value is refused: the value
//     must still be reachable, i.e. the current one is a prefix of it or
//     a setter still to place sets a prefix of it. With unique appended
//     strings a read value names which appends precede it, in order, so
//     an append placed out of that order is refused at once. KvSpec
//     declares all four.
//   * Pending twins. When the command type has `==`, operations without a
//     response and with equal commands are interchangeable, so they are
//     placed only in invoke order: k of them placed is one state, not one
//     per k-subset (histories with many timeouts of a few distinct calls).
//     `==` must mean "the same call": next_model treats equal commands
//     alike.
//   * Undo records. When the spec says how to undo a call,
//       U undo_record(const M& before, const C& cmd) const;
//       void undo(M& after, const C& cmd, U record) const;
//     (`undo` turns the model after `cmd` back into `before`, given what
//     `undo_record` kept of it: what the call removed or replaced), each
//     placed call keeps that record instead of a copy of the model, so a
//     model that grows with the history (a queue, an appended-to value)
//     costs memory once, not once per placed call. KvSpec and QueueSpec
//     declare both.
//   * A cache of the (set of placed operations, model) states already
//     visited, hashed with XXH3 and compared exactly on a hash match, so
//     no state is explored twice. The set is stored as one position per
//     chain of completed operations (the placed set is always a prefix of
//     each chain, so this is the literature's bitset, compressed to the
//     size of the concurrency) plus a bitset of the pending operations
//     placed; a state with more pending operations placed than one that
//     already failed fails too, and is skipped.
//   * A budget: `HistoryOptions::budget` model evaluations and an optional
//     `timeout`. When either runs out, the verdict is `undecided` (with the
//     longest partial linearization found), never a hang.
//
// Example (a stale read of the built-in register, models.hpp; the test
// History.HeaderExampleHolds checks what the comments say):
//
// clang-format off
//   using namespace merilo::linearize;
//   std::vector<Operation<RegisterCmd, RegisterResponse>> ops = {
//       {RegisterCmd::write(1), RegisterResponse{}, 0, 10},
//       {RegisterCmd::write(2), RegisterResponse{}, 11, 20},
//       {RegisterCmd::read(), RegisterResponse::of(1), 21, 30},
//   };
//   auto r = check_history(RegisterSpec{}, RegisterModel{}, ops, HistoryOptions{});
//   // r.verdict == Verdict::not_linearizable, and r.explanation says why:
//   // prefix {0, 1} (both writes, a longest valid order), then the read
//   // (returned == 2) cannot follow: "read 1, but the register held 2".
// clang-format on
//
// NOTE: memory. The search keeps one stack frame per placed operation (an
// index and, without undo records, the model before it) and a cache entry
// per visited state (a position per chain — about one per process — a bit
// per pending operation, and the model). With undo records the frames
// take memory in proportion to the history; without them, a model that
// grows with the history makes them grow with its square. The cache is
// capped at `HistoryOptions::cache_bytes`; once full it stops remembering
// new states. The search stays correct — it may only revisit states — and
// the budget still bounds it, so a full cache shows up as more
// evaluations, never as an out-of-memory kill. `HistoryResult::cache_full`
// says when it happened. See docs/design/linearize-search.md.
//
// NOTE: a spec whose `next_model` needs the response (model.hpp) and has
// no two-argument form cannot step an operation without one: such an
// operation is a `usage_error` naming it.
//
// NOTE: never throws. Bad instants are a `usage_error`; an exception from
// the spec or the model ends the check as `crashed` with its message.
#ifndef MERILO_LINEARIZE_HISTORY_HPP
#define MERILO_LINEARIZE_HISTORY_HPP

#include <chrono>    // HistoryOptions::timeout
#include <cstddef>   // std::size_t
#include <cstdint>   // instants, counters
#include <limits>    // kNever
#include <optional>  // responses, violations
#include <span>      // the operations
#include <string>    // partition keys, errors
#include <vector>    // orders

#include <merilo/linearize/model.hpp>

namespace merilo::linearize {

/// The return instant of an operation that never returned.
inline constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

/// One recorded operation.
template <class C, class R>
struct Operation {
  C command;                          ///< What was asked.
  std::optional<R> response;          ///< What came back; none when unknown.
  std::int64_t invoked_at = 0;        ///< When it was invoked.
  std::int64_t returned_at = kNever;  ///< When it returned; ignored without a response.
  /// Who made it: what a spec's `next_model(model, cmd, response, caller)`
  /// is given as the caller (model.hpp). Nothing else reads it.
  Caller process = 0;
};

/// The model after operation `o`: the spec's widest `next_model` form with
/// its response and `process` (model.hpp), or, when it has no response, the
/// two-argument form. A spec without that form leaves the model as it is
/// then; `check_history` refuses such an operation before it steps one.
template <class S, class M, class C, class R>
requires SpecFor<S, M, C, R>
[[nodiscard]] M advance(const S& spec, const M& model, const Operation<C, R>& o) {
  if (o.response) return advance(spec, model, o.command, *o.response, o.process);
  if constexpr (StepsOnCommand<S, M, C>) {
    return spec.next_model(model, o.command);
  } else {
    return model;
  }
}

/// Bounds of one `check_history`.
struct HistoryOptions {
  /// Model evaluations (postcondition or next_model calls, one per node the
  /// search visits) over all parts together.
  std::uint64_t budget = 10'000'000;
  /// Wall-clock limit; zero means none. Checked every few thousand
  /// evaluations, so the check ends shortly after it.
  std::chrono::nanoseconds timeout{0};
  /// The most memory the state cache may use, in bytes (estimated).
  std::size_t cache_bytes = std::size_t{512} << 20U;
};

/// An operation that could have gone next at a dead end, and why it did not.
template <class V>
struct Candidate {
  std::size_t operation = 0;   ///< Index into the operations given.
  std::optional<V> violation;  ///< Its postcondition failed there; when
                               ///< empty, it fit but led only to states
                               ///< already ruled out.
};

/// Where the search got stuck (not linearizable), or how far it got
/// (undecided).
template <class V>
struct DeadEnd {
  std::string partition;      ///< The part's key ("" when not partitioned).
  std::size_t part_size = 0;  ///< Operations in that part.
  /// A valid order (operation indices): not linearizable, one the search
  /// could not extend past `returned`; undecided, the longest placed.
  std::vector<std::size_t> prefix;
  /// Not linearizable: no valid order places more operations than `prefix`
  /// (the search that found it walked every order). False when it was
  /// stopped early, by its budget or at the first dead end on a read the
  /// real-time order rules out: `prefix` is then real but maybe not longest.
  bool longest = false;
  /// Not linearizable: the operation whose return ended the search there —
  /// one of the candidates had to be placed before it returned.
  std::optional<std::size_t> returned;
  std::vector<Candidate<V>> candidates;  ///< At most `kMaxCandidates` of them.
  std::size_t more_candidates = 0;       ///< Candidates left out of the list.
  /// The most candidates a dead end lists.
  static constexpr std::size_t kMaxCandidates = 32;
};

/// What `check_history` found: the fields of every check's result
/// (`SearchResult`: verdict, stop, evaluations, cache_entries, error, ok())
/// and the orders or dead end of a recorded history.
template <class V>
struct HistoryResult : SearchResult {
  /// Linearizable: one order per part (operation indices), in `partitions` order.
  std::vector<std::vector<std::size_t>> orders;
  std::vector<std::string> partitions;  ///< The parts' keys, in the order checked.
  DeadEnd<V> explanation;               ///< Not linearizable or undecided.
  std::size_t cache_bytes = 0;          ///< The cache's estimated memory (largest part).
  bool cache_full = false;              ///< The cache reached `cache_bytes`.
};

/// Checks a recorded history (see the top of this file). Returns a
/// `HistoryResult<V>` with `V = violation_t<S, M, C, R>`.
template <class S, class M, class C, class R>
[[nodiscard]] auto check_history(const S& spec, const M& initial,
                                 std::span<const Operation<C, R>> operations,
                                 const HistoryOptions& options) noexcept;

/// The same, for a vector of operations.
template <class S, class M, class C, class R>
[[nodiscard]] auto check_history(const S& spec, const M& initial,
                                 const std::vector<Operation<C, R>>& operations,
                                 const HistoryOptions& options) noexcept;

}  // namespace merilo::linearize

#include <merilo/linearize/detail/history_inl.hpp>

#endif  // MERILO_LINEARIZE_HISTORY_HPP
