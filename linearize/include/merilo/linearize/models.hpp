// merilo/linearize/models.hpp — the built-in models: register, kv, queue, bag.
//
// Ready-made specs for `check_history` (and `check`), the ones
// merilo-lincheck uses. Each has a command, a response and a model type:
//
//   * register — one integer register, initially null. `read` returns the
//     value (or null), `write v` sets it, `cas [expected, new]` swaps when
//     it holds `expected`: a cas that succeeded needs the register to hold
//     `expected` at its linearization point, a cas that failed needs it not
//     to.
//   * kv — string values per key; a key never written reads as "". `get`
//     returns the value, `put v` sets it, `append v` adds to its end.
//     Partitioned by key, so each key is checked on its own, and declares
//     its value as a sequence (gets read it whole, puts set it, appends
//     extend it), so a get's value rules out every order of the appends
//     but the one it spells (history.hpp, "Sequence values").
//   * queue — a FIFO queue of integers, initially empty. `enqueue v` adds v
//     at the back; `dequeue` removes and returns the front, or null when the
//     queue is empty.
//   * bag — a multiset of integers, initially empty. `add v` puts v in;
//     `remove` takes out any one element and returns it, or null when the
//     bag is empty. Which element left is known only from the response, so
//     its `next_model` takes the response (model.hpp) and it has no
//     two-argument form: an operation without a response is refused.
//
// Register, queue and bag commands may carry a key too: operations on
// different keys are then independent registers (queues, bags), checked
// separately.
//
// Example:
//
//   using namespace merilo::linearize;
//   std::vector<Operation<RegisterCmd, RegisterResponse>> ops = {
//       {RegisterCmd::write(3), RegisterResponse{}, 0, 10},
//       {RegisterCmd::read(), RegisterResponse::of(3), 5, 12},
//   };
//   auto r = check_history(RegisterSpec{}, RegisterModel{}, ops, HistoryOptions{});
//
// NOTE: an operation whose response is unknown (`std::nullopt`) may take
// effect at any time after its invoke or never; the register, kv and queue
// specs give every command a next model in every state, which is what
// makes that sound. The bag's next state needs the response, so
// `check_history` refuses a bag operation without one (a usage error).
// merilo-lincheck gives an unanswered add a response that may come as late
// as after every other operation, the same, to every remove, as never.
#ifndef MERILO_LINEARIZE_MODELS_HPP
#define MERILO_LINEARIZE_MODELS_HPP

#include <algorithm>    // std::max
#include <cstddef>      // std::size_t
#include <cstdint>      // std::int64_t
#include <deque>        // QueueModel
#include <optional>     // values that may be null
#include <string>       // kv values, keys, violations
#include <string_view>  // kv values as sequences
#include <utility>      // std::move
#include <vector>       // BagModel

#include <merilo/linearize/model.hpp>

namespace merilo::linearize {

// --- register ----------------------------------------------------------------

/// A register command: read, write v, or cas [expected, swap].
struct RegisterCmd {
  /// What the call does.
  enum class Kind : std::uint8_t { read, write, cas };
  /// What the call does.
  Kind kind = Kind::read;
  std::int64_t value = 0;  ///< write: the value; cas: the expected value.
  std::int64_t swap = 0;   ///< cas: the new value.
  std::string key;         ///< Independent registers per key ("" = the one register).

  /// A read of `key`.
  static RegisterCmd read(std::string key = {}) { return {Kind::read, 0, 0, std::move(key)}; }
  /// A write of `v` to `key`.
  static RegisterCmd write(std::int64_t v, std::string key = {}) {
    return {Kind::write, v, 0, std::move(key)};
  }
  /// A compare-and-set of `key` from `expected` to `swap`.
  static RegisterCmd cas(std::int64_t expected, std::int64_t swap, std::string key = {}) {
    return {Kind::cas, expected, swap, std::move(key)};
  }
  /// The same call (the search treats equal calls that never returned as
  /// interchangeable).
  friend bool operator==(const RegisterCmd&, const RegisterCmd&) = default;
};

/// A register response: whether it failed (a cas that did not swap) and,
/// for a read, the value read (none for null).
struct RegisterResponse {
  /// A cas that did not swap.
  bool failed = false;
  /// A read's value (none for null).
  std::optional<std::int64_t> value;

  /// A response carrying `v`.
  static RegisterResponse of(std::optional<std::int64_t> v) { return {false, v}; }
  /// A failed cas.
  static RegisterResponse fail() { return {true, std::nullopt}; }
};

/// The register's state: its value, or null before the first write.
struct RegisterModel {
  /// None before the first write.
  std::optional<std::int64_t> value;
  /// The same value.
  friend bool operator==(const RegisterModel&, const RegisterModel&) = default;
  template <class Sink>
  /// Hands the model's bytes to `sink` (`fsm::FeedsBytes`).
  void feed(Sink& sink) const {
    const std::int64_t v[2] = {value ? 1 : 0, value.value_or(0)};
    sink(v, sizeof v);
  }
};

/// The register spec.
struct RegisterSpec {
  /// Why `r` cannot answer `c` in `m`, or nothing when it can.
  [[nodiscard]] std::optional<std::string> postcondition(const RegisterModel& m,
                                                         const RegisterCmd& c,
                                                         const RegisterResponse& r) const;
  /// The register after `c`.
  [[nodiscard]] RegisterModel next_model(const RegisterModel& m, const RegisterCmd& c) const;
  /// The key: registers of different keys are checked apart.
  [[nodiscard]] std::string partition(const RegisterCmd& c) const { return c.key; }
  /// Reads and failed cas never change the register.
  [[nodiscard]] bool read_only(const RegisterCmd& c,
                               const std::optional<RegisterResponse>& r) const {
    return c.kind == RegisterCmd::Kind::read ||
           (c.kind == RegisterCmd::Kind::cas && r.has_value() && r->failed);
  }
  /// The register's value (null included): what reads see and writes set.
  [[nodiscard]] std::optional<std::int64_t> value_of(const RegisterModel& m) const {
    return m.value;
  }
  /// The value a call fits only with: a read's result, a swapped cas's
  /// expected value. Nothing for a failed or unanswered call.
  [[nodiscard]] std::optional<std::optional<std::int64_t>> reads_value(
      const RegisterCmd& c, const std::optional<RegisterResponse>& r) const {
    if (!r || r->failed || c.kind == RegisterCmd::Kind::write) return std::nullopt;
    if (c.kind == RegisterCmd::Kind::read) return std::optional<std::int64_t>(r->value);
    return std::optional<std::int64_t>(c.value);
  }
  /// The value a call may leave behind: a write's, a cas's new value (when
  /// it may have swapped). Nothing for reads and failed cas, which change
  /// nothing.
  [[nodiscard]] std::optional<std::optional<std::int64_t>> writes_value(
      const RegisterCmd& c, const std::optional<RegisterResponse>& r) const {
    if (c.kind == RegisterCmd::Kind::write) return std::optional<std::int64_t>(c.value);
    if (c.kind == RegisterCmd::Kind::cas && !(r && r->failed)) {
      return std::optional<std::int64_t>(c.swap);
    }
    return std::nullopt;
  }
  /// A write, and a cas that swapped, always leave their value behind.
  [[nodiscard]] bool sets_value(const RegisterCmd& c,
                                const std::optional<RegisterResponse>& r) const {
    return r.has_value() &&
           (c.kind == RegisterCmd::Kind::write || (c.kind == RegisterCmd::Kind::cas && !r->failed));
  }
};

// --- kv ----------------------------------------------------------------------

/// A kv command on one key: get, put v, append v.
struct KvCmd {
  /// What the call does.
  enum class Kind : std::uint8_t { get, put, append };
  /// What the call does.
  Kind kind = Kind::get;
  /// The key the call works on.
  std::string key;
  std::string value;  ///< put/append: the argument.
  /// The same call.
  friend bool operator==(const KvCmd&, const KvCmd&) = default;
};

/// A kv response: for a get, the value read.
struct KvResponse {
  /// The call failed.
  bool failed = false;
  /// A get's value.
  std::string value;
};

/// One key's value ("" when never written). A kv history is partitioned by
/// key, so the model is a single value.
struct KvModel {
  /// The key's value.
  std::string value;
  /// The same value.
  friend bool operator==(const KvModel&, const KvModel&) = default;
  /// The memory a copy holds outside the object (the state cache counts
  /// it against its cap): the string's buffer once it is too long to sit
  /// inside the object, plus the allocator's bookkeeping.
  [[nodiscard]] std::size_t heap_bytes() const noexcept {
    return value.size() < sizeof(std::string) ? 0 : value.size() + 1 + 16;
  }
  template <class Sink>
  /// Hands the model's bytes to `sink` (`fsm::FeedsBytes`).
  void feed(Sink& sink) const {
    sink(value.data(), value.size());
  }
};

/// The kv spec (partitioned by key).
struct KvSpec {
  /// Why `r` cannot answer `c` in `m`, or nothing when it can.
  [[nodiscard]] std::optional<std::string> postcondition(const KvModel& m, const KvCmd& c,
                                                         const KvResponse& r) const;
  /// The value after `c`.
  [[nodiscard]] KvModel next_model(const KvModel& m, const KvCmd& c) const;
  /// The key: keys are checked apart.
  [[nodiscard]] std::string partition(const KvCmd& c) const { return c.key; }
  /// Gets never change the value.
  [[nodiscard]] bool read_only(const KvCmd& c, const std::optional<KvResponse>&) const {
    return c.kind == KvCmd::Kind::get;
  }
  /// The key's value as a sequence (of chars): what gets read whole, puts
  /// set and appends extend. The views below point into the command or
  /// response given, which outlive the check.
  [[nodiscard]] std::string_view sequence_of(const KvModel& m) const { return m.value; }
  /// A completed get fits only when the key holds exactly what it read.
  [[nodiscard]] std::optional<std::string_view> reads_sequence(
      const KvCmd& c, const std::optional<KvResponse>& r) const {
    if (c.kind != KvCmd::Kind::get || !r || r->failed) return std::nullopt;
    return std::string_view(r->value);
  }
  /// A put leaves exactly its argument (failed or not: `next_model` applies
  /// it either way, as the call may have taken effect).
  [[nodiscard]] std::optional<std::string_view> sets_sequence(
      const KvCmd& c, const std::optional<KvResponse>&) const {
    if (c.kind != KvCmd::Kind::put) return std::nullopt;
    return std::string_view(c.value);
  }
  /// An append adds its argument at the end.
  [[nodiscard]] std::optional<std::string_view> extends_sequence(
      const KvCmd& c, const std::optional<KvResponse>&) const {
    if (c.kind != KvCmd::Kind::append) return std::nullopt;
    return std::string_view(c.value);
  }
  /// What undoing a call needs (history.hpp, "Undo records"): the value a
  /// put replaced; nothing for a get or an append (an append is undone by
  /// cutting its argument off the end).
  [[nodiscard]] std::optional<std::string> undo_record(const KvModel& before, const KvCmd& c) const;
  /// Turns the model after `c` back into the one before it.
  void undo(KvModel& after, const KvCmd& c, std::optional<std::string> replaced) const;
};

// --- queue -------------------------------------------------------------------

/// A queue command: enqueue v or dequeue.
struct QueueCmd {
  /// What the call does.
  enum class Kind : std::uint8_t { enqueue, dequeue };
  /// What the call does.
  Kind kind = Kind::dequeue;
  std::int64_t value = 0;  ///< enqueue: the value.
  std::string key;         ///< Independent queues per key ("" = the one queue).
  /// The same call.
  friend bool operator==(const QueueCmd&, const QueueCmd&) = default;
};

/// A queue response: for a dequeue, the value (none when it found the queue
/// empty).
struct QueueResponse {
  /// The call failed.
  bool failed = false;
  /// A dequeue's value (none when the queue was empty).
  std::optional<std::int64_t> value;
};

/// The queue's contents, front first.
struct QueueModel {
  /// Front first.
  std::deque<std::int64_t> items;
  /// The same contents.
  friend bool operator==(const QueueModel&, const QueueModel&) = default;
  /// The memory a copy holds outside the object (the state cache counts
  /// it against its cap). A deque allocates in 512-byte blocks plus a map
  /// of block pointers, so even an empty queue holds over half a kilobyte:
  /// counting only its items underestimated a cache of short queues
  /// threefold.
  [[nodiscard]] std::size_t heap_bytes() const noexcept {
    const std::size_t blocks = items.size() / 64 + 1;
    return blocks * (512 + 16) + std::max<std::size_t>(8, blocks + 2) * sizeof(void*) + 16;
  }
  template <class Sink>
  /// Hands the model's bytes to `sink` (`fsm::FeedsBytes`).
  void feed(Sink& sink) const {
    const std::size_t n = items.size();
    sink(&n, sizeof n);
    // In runs of up to 64 values: one sink call per value made hashing a
    // long queue (every step hashes the model) the search's main cost.
    std::int64_t run[64];
    std::size_t used = 0;
    for (const std::int64_t v : items) {
      run[used++] = v;
      if (used == 64) {
        sink(run, sizeof run);
        used = 0;
      }
    }
    if (used > 0) sink(run, used * sizeof run[0]);
  }
};

/// The queue spec.
struct QueueSpec {
  /// Why `r` cannot answer `c` in `m`, or nothing when it can.
  [[nodiscard]] std::optional<std::string> postcondition(const QueueModel& m, const QueueCmd& c,
                                                         const QueueResponse& r) const;
  /// The queue after `c`.
  [[nodiscard]] QueueModel next_model(const QueueModel& m, const QueueCmd& c) const;
  /// The key: queues of different keys are checked apart.
  [[nodiscard]] std::string partition(const QueueCmd& c) const { return c.key; }
  /// A dequeue that found the queue empty fits only an empty queue, and
  /// leaves it empty.
  [[nodiscard]] bool read_only(const QueueCmd& c, const std::optional<QueueResponse>& r) const {
    return c.kind == QueueCmd::Kind::dequeue && r.has_value() && !r->failed && !r->value;
  }
  /// What undoing a call needs (history.hpp, "Undo records"): the front a
  /// dequeue removed; nothing for an enqueue or a dequeue of an empty queue.
  [[nodiscard]] std::optional<std::int64_t> undo_record(const QueueModel& before,
                                                        const QueueCmd& c) const;
  /// Turns the model after `c` back into the one before it.
  void undo(QueueModel& after, const QueueCmd& c, std::optional<std::int64_t> removed) const;
};

// --- bag ---------------------------------------------------------------------

/// A bag command: add v, or remove any one element.
struct BagCmd {
  /// What the call does.
  enum class Kind : std::uint8_t { add, remove };
  Kind kind = Kind::remove;  ///< add or remove.
  std::int64_t value = 0;    ///< add: the value.
  std::string key;           ///< Independent bags per key ("" = the one bag).
  /// The same call.
  friend bool operator==(const BagCmd&, const BagCmd&) = default;
};

/// A bag response: for a remove, the element taken out (none when the bag
/// was empty).
struct BagResponse {
  std::optional<std::int64_t> value;  ///< The element removed; none for an empty bag or an add.
};

/// The bag's elements, sorted, so equal bags are equal values.
struct BagModel {
  std::vector<std::int64_t> items;  ///< Sorted, duplicates kept.
  /// The same elements.
  friend bool operator==(const BagModel&, const BagModel&) = default;
  /// Feeds the count and the elements to the checker's hash.
  template <class Sink>
  void feed(Sink& sink) const {
    const std::size_t n = items.size();
    sink(&n, sizeof n);
    for (const std::int64_t v : items) sink(&v, sizeof v);
  }
};

/// The bag spec: a remove fits when the bag holds what it returned (or is
/// empty when it returned none), and takes out exactly that element.
struct BagSpec {
  /// Why `r` cannot be `c`'s response in `m`, or nothing when it can.
  [[nodiscard]] std::optional<std::string> postcondition(const BagModel& m, const BagCmd& c,
                                                         const BagResponse& r) const;
  /// `m` after `c` answered `r`: the added element in, or the removed one out.
  [[nodiscard]] BagModel next_model(const BagModel& m, const BagCmd& c, const BagResponse& r) const;
  /// Bags of different keys are checked apart.
  [[nodiscard]] std::string partition(const BagCmd& c) const { return c.key; }
};

// --- text ----------------------------------------------------------------------
//
// `merilo_describe` is the hook `core::describe` finds by argument-dependent
// lookup, so these types print as they are (no wrapper) wherever merilo
// prints a command, response or model: statem and parallel reports included.

/// "read", "write 3", "cas [1, 2]"; "get", "put \"ab\"", ...; "enqueue 4", "dequeue";
/// "add 4", "remove".
[[nodiscard]] std::string merilo_describe(const RegisterCmd& c);
[[nodiscard]] std::string merilo_describe(const KvCmd& c);
[[nodiscard]] std::string merilo_describe(const QueueCmd& c);
[[nodiscard]] std::string merilo_describe(const BagCmd& c);
/// "3", "null", "fail"; "\"ab\""; ...
[[nodiscard]] std::string merilo_describe(const RegisterResponse& r);
[[nodiscard]] std::string merilo_describe(const KvResponse& r);
[[nodiscard]] std::string merilo_describe(const QueueResponse& r);
[[nodiscard]] std::string merilo_describe(const BagResponse& r);
/// "3" or "null"; "\"ab\""; "[1, 2, 3]" (front first).
[[nodiscard]] std::string merilo_describe(const RegisterModel& m);
[[nodiscard]] std::string merilo_describe(const KvModel& m);
[[nodiscard]] std::string merilo_describe(const QueueModel& m);
/// "[1, 2, 2]" (sorted).
[[nodiscard]] std::string merilo_describe(const BagModel& m);

}  // namespace merilo::linearize

#endif  // MERILO_LINEARIZE_MODELS_HPP
