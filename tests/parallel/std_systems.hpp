// std_systems.hpp — four small components written with std primitives only
// (no merilo::sync, so `parallel::check` runs them free, in stress mode),
// each with a seeded bug and a fixed twin, and correct containers for the
// no-false-alarm checks:
//   - Counter: a relaxed load, then a store (a lost increment);
//   - Set: insert checks membership and appends in two lock sections (a
//     double insert);
//   - Accounts: two locks taken in opposite orders by the two transfers (a
//     lock-order deadlock);
//   - Ring: a capacity-2 ring whose push checks the size, then claims a
//     slot (over capacity);
//   - LockedQueue: a std::deque behind a std::mutex (correct, FIFO).
// No sleep, pause or yield sits in any race window: the stress mode must
// meet windows a few instructions wide on its own.
#ifndef MERILO_TESTS_PARALLEL_STD_SYSTEMS_HPP
#define MERILO_TESTS_PARALLEL_STD_SYSTEMS_HPP

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <merilo/parallel/spec.hpp>

namespace stdsys {

namespace st = merilo::statem;
using merilo::parallel::MaybeViolation;

/// A number as the model of the counter and the accounts.
struct Value {
  std::int64_t v = 0;
  friend bool operator==(const Value&, const Value&) = default;
};

// ---------------------------------------------------------------- counter

enum class CounterOp : std::uint8_t { inc, get };
[[nodiscard]] constexpr std::string_view name(CounterOp op) noexcept {
  return op == CounterOp::inc ? "inc" : "get";
}

/// `inc` returns the new value. Racy: a relaxed load, then a relaxed store
/// of one more (two increments that meet between them lose one). Fixed: one
/// fetch_add.
struct Counter {
  bool racy = false;
  std::atomic<std::int64_t> n{0};
  std::int64_t inc() {
    if (!racy) return n.fetch_add(1) + 1;
    const std::int64_t seen = n.load(std::memory_order_relaxed);
    n.store(seen + 1, std::memory_order_relaxed);
    return seen + 1;
  }
};

struct CounterSpec {
  using model_type = Value;
  using command_type = CounterOp;
  using response_type = std::int64_t;
  using sut_type = std::unique_ptr<Counter>;
  bool racy = false;

  Value initial() const { return {}; }
  st::Gen<CounterOp> command(const Value&) const {
    return st::element_of<CounterOp>({CounterOp::inc, CounterOp::get});
  }
  st::Admission precondition(const Value&, CounterOp) const { return st::Admission::admit; }
  Value next_model(const Value& m, CounterOp op) const {
    return op == CounterOp::inc ? Value{m.v + 1} : m;
  }
  sut_type new_sut() const {
    auto c = std::make_unique<Counter>();
    c->racy = racy;
    return c;
  }
  std::int64_t run(sut_type& c, CounterOp op) const {
    return op == CounterOp::inc ? c->inc() : c->n.load();
  }
  MaybeViolation postcondition(const Value& m, CounterOp op, std::int64_t got) const {
    const std::int64_t want = op == CounterOp::inc ? m.v + 1 : m.v;
    if (got == want) return std::nullopt;
    return st::Violation{"counter.value", std::to_string(got) + " != " + std::to_string(want)};
  }
  MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

// -------------------------------------------------------------------- set

/// `insert v` answers 1 when v was new, 0 when it was there; `has v`
/// answers 1 or 0. Values are 0..3, so two branches often insert the same.
struct SetOp {
  bool insert = true;
  std::int64_t v = 0;
};
inline std::string merilo_describe(const SetOp& op) {
  return (op.insert ? "insert " : "has ") + std::to_string(op.v);
}

/// Racy insert: one lock section asks whether v is in, a second appends it
/// (two inserts of v both see it absent, both append, both answer 1).
/// Fixed: one section does both.
struct Set {
  bool racy = false;
  std::mutex mu;
  std::vector<std::int64_t> items;  // guarded by mu
  bool contains_locked(std::int64_t v) const {
    for (std::int64_t x : items)
      if (x == v) return true;
    return false;
  }
  std::int64_t insert(std::int64_t v) {
    if (racy) {
      {
        std::lock_guard lock(mu);
        if (contains_locked(v)) return 0;
      }
      std::lock_guard lock(mu);
      items.push_back(v);
      return 1;
    }
    std::lock_guard lock(mu);
    if (contains_locked(v)) return 0;
    items.push_back(v);
    return 1;
  }
  std::int64_t has(std::int64_t v) {
    std::lock_guard lock(mu);
    return contains_locked(v) ? 1 : 0;
  }
};

/// The set's model: bit v set when v is in.
struct Bits {
  std::uint32_t in = 0;
  friend bool operator==(const Bits&, const Bits&) = default;
};

struct SetSpec {
  using model_type = Bits;
  using command_type = SetOp;
  using response_type = std::int64_t;
  using sut_type = std::unique_ptr<Set>;
  bool racy = false;

  Bits initial() const { return {}; }
  st::Gen<SetOp> command(const Bits&) const {
    return st::frequency<SetOp>({{3, st::map(st::integer<std::int64_t>(0, 3),
                                             [](std::int64_t v) {
                                               return SetOp{true, v};
                                             })},
                                 {1, st::map(st::integer<std::int64_t>(0, 3), [](std::int64_t v) {
                                    return SetOp{false, v};
                                  })}});
  }
  st::Admission precondition(const Bits&, const SetOp&) const { return st::Admission::admit; }
  Bits next_model(const Bits& m, const SetOp& op) const {
    if (!op.insert) return m;
    return Bits{m.in | (1U << static_cast<unsigned>(op.v))};
  }
  sut_type new_sut() const {
    auto s = std::make_unique<Set>();
    s->racy = racy;
    return s;
  }
  std::int64_t run(sut_type& s, const SetOp& op) const {
    return op.insert ? s->insert(op.v) : s->has(op.v);
  }
  MaybeViolation postcondition(const Bits& m, const SetOp& op, std::int64_t got) const {
    const bool in = (m.in & (1U << static_cast<unsigned>(op.v))) != 0;
    const std::int64_t want = op.insert ? (in ? 0 : 1) : (in ? 1 : 0);
    if (got == want) return std::nullopt;
    return st::Violation{"set.answer", merilo_describe(op) + " answered " + std::to_string(got)};
  }
  MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

// --------------------------------------------------------------- accounts

enum class Move : std::uint8_t { a_to_b, b_to_a };
[[nodiscard]] constexpr std::string_view name(Move m) noexcept {
  return m == Move::a_to_b ? "a->b" : "b->a";
}

/// Two accounts, one std::mutex each; a transfer moves 1 and answers the
/// total. Racy: it locks the source, then the target (two opposite
/// transfers can each hold one lock and wait for the other for good).
/// Fixed: a, then b, whichever the direction.
struct Accounts {
  bool ordered = false;
  std::mutex a, b;
  std::int64_t in_a = 10, in_b = 10;  // guarded by a and b together
  std::int64_t transfer(Move m) {
    std::mutex& from = m == Move::a_to_b ? a : b;
    std::mutex& to = m == Move::a_to_b ? b : a;
    std::lock_guard one(ordered ? a : from);
    std::lock_guard two(ordered ? b : to);
    (m == Move::a_to_b ? in_a : in_b) -= 1;
    (m == Move::a_to_b ? in_b : in_a) += 1;
    return in_a + in_b;
  }
};

struct AccountsSpec {
  using model_type = Value;
  using command_type = Move;
  using response_type = std::int64_t;
  using sut_type = std::unique_ptr<Accounts>;
  bool ordered = false;

  Value initial() const { return {}; }
  st::Gen<Move> command(const Value&) const {
    return st::element_of<Move>({Move::a_to_b, Move::b_to_a});
  }
  st::Admission precondition(const Value&, Move) const { return st::Admission::admit; }
  Value next_model(const Value& m, Move) const { return m; }
  sut_type new_sut() const {
    auto s = std::make_unique<Accounts>();
    s->ordered = ordered;
    return s;
  }
  std::int64_t run(sut_type& s, Move m) const { return s->transfer(m); }
  MaybeViolation postcondition(const Value&, Move, std::int64_t total) const {
    if (total == 20) return std::nullopt;
    return st::Violation{"accounts.total", "total " + std::to_string(total)};
  }
  MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

// ------------------------------------------------------------------- ring

enum class RingOp : std::uint8_t { push, pop };
[[nodiscard]] constexpr std::string_view name(RingOp op) noexcept {
  return op == RingOp::push ? "push" : "pop";
}

/// A lock-free ring of two slots for one counter of items. `push` answers
/// 1 when it claimed a slot, 0 when the ring was full; `pop` 1 when it
/// freed one, 0 when empty. Racy push: load the size, and if it is below
/// two, add one (two pushes that meet after the check fill three slots of
/// two). Fixed: a compare-and-swap claims the slot.
struct Ring {
  static constexpr std::int64_t kCapacity = 2;
  bool racy = false;
  std::atomic<std::int64_t> size{0};
  std::atomic<std::uint64_t> tail{0};
  std::array<std::atomic<std::int64_t>, kCapacity> slot{};
  std::int64_t push() {
    if (racy) {
      if (size.load() >= kCapacity) return 0;
      size.fetch_add(1);
    } else {
      std::int64_t seen = size.load();
      do {
        if (seen >= kCapacity) return 0;
      } while (!size.compare_exchange_weak(seen, seen + 1));
    }
    const std::uint64_t at = tail.fetch_add(1);
    slot[at % kCapacity].store(1);
    return 1;
  }
  std::int64_t pop() {
    std::int64_t seen = size.load();
    do {
      if (seen <= 0) return 0;
    } while (!size.compare_exchange_weak(seen, seen - 1));
    return 1;
  }
};

/// The ring's model: how many items are in.
struct Fill {
  std::int64_t size = 0;
  friend bool operator==(const Fill&, const Fill&) = default;
};

struct RingSpec {
  using model_type = Fill;
  using command_type = RingOp;
  using response_type = std::int64_t;
  using sut_type = std::unique_ptr<Ring>;
  bool racy = false;

  Fill initial() const { return {}; }
  st::Gen<RingOp> command(const Fill&) const {
    return st::element_of<RingOp>({RingOp::push, RingOp::push, RingOp::pop});
  }
  st::Admission precondition(const Fill&, RingOp) const { return st::Admission::admit; }
  Fill next_model(const Fill& m, RingOp op) const {
    if (op == RingOp::push) return m.size < Ring::kCapacity ? Fill{m.size + 1} : m;
    return m.size > 0 ? Fill{m.size - 1} : m;
  }
  sut_type new_sut() const {
    auto r = std::make_unique<Ring>();
    r->racy = racy;
    return r;
  }
  std::int64_t run(sut_type& r, RingOp op) const {
    return op == RingOp::push ? r->push() : r->pop();
  }
  MaybeViolation postcondition(const Fill& m, RingOp op, std::int64_t got) const {
    const std::int64_t want =
        op == RingOp::push ? (m.size < Ring::kCapacity ? 1 : 0) : (m.size > 0 ? 1 : 0);
    if (got == want) return std::nullopt;
    return st::Violation{"ring.answer", std::string(name(op)) + " answered " + std::to_string(got)};
  }
  MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

// ------------------------------------------------------- FIFO containers

/// `push v` (answers 0) or `pop` (answers the oldest item, -1 when empty).
struct QueueOp {
  bool push = true;
  std::int64_t v = 0;
};
inline std::string merilo_describe(const QueueOp& op) {
  return op.push ? "push " + std::to_string(op.v) : std::string("pop");
}

/// A FIFO queue's model.
struct Items {
  std::vector<std::int64_t> in;
  friend bool operator==(const Items&, const Items&) = default;
  template <class Sink>
  void feed(Sink& sink) const {
    for (const std::int64_t item : in) sink(&item, sizeof item);
  }
};

/// A std::deque behind a std::mutex: correct.
struct LockedQueue {
  std::mutex mu;
  std::deque<std::int64_t> items;  // guarded by mu
  void push(std::int64_t v) {
    std::lock_guard lock(mu);
    items.push_back(v);
  }
  bool try_pop(std::int64_t& out) {
    std::lock_guard lock(mu);
    if (items.empty()) return false;
    out = items.front();
    items.pop_front();
    return true;
  }
};

/// A strict FIFO spec over any queue `Q` with `push(v)` and
/// `bool try_pop(v&)`: for containers whose contract is a linearizable
/// queue (a locked deque; oneTBB's concurrent_queue).
template <class Q>
struct FifoSpec {
  using model_type = Items;
  using command_type = QueueOp;
  using response_type = std::int64_t;
  using sut_type = std::unique_ptr<Q>;

  Items initial() const { return {}; }
  st::Gen<QueueOp> command(const Items&) const {
    return st::frequency<QueueOp>({{1, st::map(st::integer<std::int64_t>(1, 99),
                                               [](std::int64_t v) {
                                                 return QueueOp{true, v};
                                               })},
                                   {1, st::just(QueueOp{false, 0})}});
  }
  st::Admission precondition(const Items&, const QueueOp&) const { return st::Admission::admit; }
  Items next_model(const Items& m, const QueueOp& op) const {
    Items out = m;
    if (op.push) {
      out.in.push_back(op.v);
    } else if (!out.in.empty()) {
      out.in.erase(out.in.begin());
    }
    return out;
  }
  sut_type new_sut() const { return std::make_unique<Q>(); }
  std::int64_t run(sut_type& q, const QueueOp& op) const {
    if (op.push) {
      q->push(op.v);
      return 0;
    }
    std::int64_t v = -1;
    return q->try_pop(v) ? v : -1;
  }
  MaybeViolation postcondition(const Items& m, const QueueOp& op, std::int64_t got) const {
    const std::int64_t want = op.push ? 0 : (m.in.empty() ? -1 : m.in.front());
    if (got == want) return std::nullopt;
    return st::Violation{"queue.answer", merilo_describe(op) + " answered " + std::to_string(got)};
  }
  MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

}  // namespace stdsys

#endif  // MERILO_TESTS_PARALLEL_STD_SYSTEMS_HPP
