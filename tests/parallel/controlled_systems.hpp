// controlled_systems.hpp — small systems written against merilo::sync, each
// with a spec, for the controlled scheduler's tests: a counter (lost
// update), two locks (lock-order deadlock), a set (double insert), a
// capacity-2 queue (over capacity), a rendezvous (a wait that spins, yields
// or blocks on a condition variable), a seqlock (a torn read, the
// reader switched out between its two loads) and a system whose schedule depends on a global.
#ifndef MERILO_TESTS_PARALLEL_CONTROLLED_SYSTEMS_HPP
#define MERILO_TESTS_PARALLEL_CONTROLLED_SYSTEMS_HPP

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <merilo/parallel/spec.hpp>
#include <merilo/sync/sync.hpp>

namespace controlled {

namespace st = merilo::statem;
namespace sync = merilo::sync;
using merilo::parallel::MaybeViolation;

/// An integer model for systems whose every call returns a number.
struct Value {
  std::int64_t v = 0;
  friend bool operator==(const Value&, const Value&) = default;
};

enum class Op : std::uint8_t { inc, get };
[[nodiscard]] constexpr std::string_view name(Op op) noexcept {
  return op == Op::inc ? "inc" : "get";
}

/// A counter: `racy` reads and then stores (a lost update); otherwise one
/// fetch_add. `yields` puts a yield between the two (a switch that is no
/// preemption).
struct Counter {
  bool racy = false;
  sync::atomic<std::int64_t> n{0};
  std::int64_t inc() {
    if (!racy) return n.fetch_add(1) + 1;
    const std::int64_t seen = n.load(std::memory_order_relaxed);
    n.store(seen + 1, std::memory_order_relaxed);
    return seen + 1;
  }
};

/// Increments and reads on a `Counter`.
struct CounterSpec {
  using model_type = Value;
  using command_type = Op;
  using response_type = std::int64_t;
  using sut_type = std::unique_ptr<Counter>;
  bool racy = false;

  Value initial() const { return {}; }
  st::Gen<Op> command(const Value&) const { return st::element_of<Op>({Op::inc, Op::get}); }
  st::Admission precondition(const Value&, Op) const { return st::Admission::admit; }
  Value next_model(const Value& m, Op op) const { return op == Op::inc ? Value{m.v + 1} : m; }
  sut_type new_sut() const {
    auto c = std::make_unique<Counter>();
    c->racy = racy;
    return c;
  }
  std::int64_t run(sut_type& c, Op op) const { return op == Op::inc ? c->inc() : c->n.load(); }
  MaybeViolation postcondition(const Value& m, Op op, std::int64_t got) const {
    const std::int64_t want = op == Op::inc ? m.v + 1 : m.v;
    if (got == want) return std::nullopt;
    return st::Violation{"counter.value", std::to_string(got) + " != " + std::to_string(want)};
  }
  MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

/// Two accounts under one mutex each; a transfer locks both. `ordered`
/// locks them in address order (correct); otherwise in argument order, so
/// two opposite transfers can deadlock.
enum class Move : std::uint8_t { a_to_b, b_to_a };
[[nodiscard]] constexpr std::string_view name(Move m) noexcept {
  return m == Move::a_to_b ? "a->b" : "b->a";
}
struct Accounts {
  bool ordered = false;
  sync::mutex a, b;
  std::int64_t in_a = 10, in_b = 10;
  std::int64_t transfer(Move m) {
    sync::mutex& from = m == Move::a_to_b ? a : b;
    sync::mutex& to = m == Move::a_to_b ? b : a;
    sync::mutex& first = ordered ? a : from;
    sync::mutex& second = ordered ? b : to;
    std::lock_guard one(first);
    std::lock_guard two(second);
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

/// A rendezvous of two threads: `meet` waits until both arrived, by
/// spinning on an atomic count (with or without a yield) or on a condition
/// variable (whose notify `lose_notify` forgets). Run with one command per
/// branch and no prefix.
enum class Wait : std::uint8_t { spin, spin_yield, condition };
enum class Meet : std::uint8_t { meet };
[[nodiscard]] constexpr std::string_view name(Meet) noexcept { return "meet"; }
struct Rendezvous {
  Wait wait = Wait::spin_yield;
  bool lose_notify = false;
  int need = 2;  // arrivals a meet waits for
  sync::atomic<int> arrived{0};
  sync::mutex mu;
  sync::condition_variable cv;
  int here = 0;  // guarded by mu
  std::int64_t meet() {
    if (wait == Wait::condition) {
      std::unique_lock lock(mu);
      if (++here >= need) {
        if (!lose_notify) cv.notify_all();
        return 1;
      }
      cv.wait(lock, [&] { return here >= need; });
      return 1;
    }
    arrived.fetch_add(1);
    while (arrived.load() < need) {
      if (wait == Wait::spin_yield) sync::this_thread::yield();
    }
    return 1;
  }
};
struct MeetSpec {
  using model_type = Value;
  using command_type = Meet;
  using response_type = std::int64_t;
  using sut_type = std::unique_ptr<Rendezvous>;
  Wait wait = Wait::spin_yield;
  bool lose_notify = false;
  int need = 2;

  Value initial() const { return {}; }
  st::Gen<Meet> command(const Value&) const { return st::just(Meet::meet); }
  st::Admission precondition(const Value&, Meet) const { return st::Admission::admit; }
  Value next_model(const Value& m, Meet) const { return m; }
  sut_type new_sut() const {
    auto s = std::make_unique<Rendezvous>();
    s->wait = wait;
    s->lose_notify = lose_notify;
    s->need = need;
    return s;
  }
  std::int64_t run(sut_type& s, Meet) const { return s->meet(); }
  MaybeViolation postcondition(const Value&, Meet, std::int64_t) const { return std::nullopt; }
  MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

/// A seqlock over a pair written together: `write` sets both halves to the
/// next number, `read` returns x * 100 + y. The reader retries while the
/// sequence is odd; `torn` forgets to compare the sequence after reading,
/// so a read preempted between its two loads by a whole write returns a
/// torn pair.
enum class SeqOp : std::uint8_t { write, read };
[[nodiscard]] constexpr std::string_view name(SeqOp op) noexcept {
  return op == SeqOp::write ? "write" : "read";
}
struct SeqLock {
  bool torn = false;
  sync::atomic<std::uint64_t> seq{0};
  sync::atomic<std::int64_t> x{0}, y{0};
  std::int64_t write() {  // a single writer
    const std::int64_t next = x.load(std::memory_order_relaxed) + 1;
    seq.fetch_add(1);
    x.store(next);
    y.store(next);
    seq.fetch_add(1);
    return next;
  }
  std::int64_t read() {
    for (;;) {
      const std::uint64_t before = seq.load();
      if (before % 2 == 1) {
        sync::this_thread::yield();
        continue;
      }
      const std::int64_t a = x.load();
      const std::int64_t b = y.load();
      if (torn || seq.load() == before) return a * 100 + b;
    }
  }
};
/// Branch 0 writes, the others read (the model counts writes).
struct SeqSpec {
  using model_type = Value;
  using command_type = SeqOp;
  using response_type = std::int64_t;
  using sut_type = std::unique_ptr<SeqLock>;
  bool torn = false;

  Value initial() const { return {}; }
  st::Gen<SeqOp> command(const Value&) const {
    return st::element_of<SeqOp>({SeqOp::write, SeqOp::read});
  }
  st::Admission precondition(const Value& m, SeqOp op) const {
    // One write in all: two writers would be a misuse of a seqlock.
    return op == SeqOp::write && m.v >= 1 ? st::Admission::reject : st::Admission::admit;
  }
  Value next_model(const Value& m, SeqOp op) const {
    return op == SeqOp::write ? Value{m.v + 1} : m;
  }
  sut_type new_sut() const {
    auto s = std::make_unique<SeqLock>();
    s->torn = torn;
    return s;
  }
  std::int64_t run(sut_type& s, SeqOp op) const {
    return op == SeqOp::write ? s->write() : s->read();
  }
  MaybeViolation postcondition(const Value& m, SeqOp op, std::int64_t got) const {
    const std::int64_t want = op == SeqOp::write ? m.v + 1 : m.v * 100 + m.v;
    if (got == want) return std::nullopt;
    return st::Violation{"seqlock.value", std::to_string(got) + " != " + std::to_string(want)};
  }
  MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

/// Two permits taken with a check-then-act: `take` reads the count and,
/// below two, adds one. Only three takers that all read before any adds can
/// take three permits: two preemptions deep.
enum class Take : std::uint8_t { take };
[[nodiscard]] constexpr std::string_view name(Take) noexcept { return "take"; }
struct Permits {
  sync::atomic<int> taken{0};
  std::int64_t take() {
    if (taken.load() >= 2) return 0;
    taken.fetch_add(1);
    return 1;
  }
};
struct PermitSpec {
  using model_type = Value;
  using command_type = Take;
  using response_type = std::int64_t;
  using sut_type = std::unique_ptr<Permits>;

  Value initial() const { return {}; }
  st::Gen<Take> command(const Value&) const { return st::just(Take::take); }
  st::Admission precondition(const Value&, Take) const { return st::Admission::admit; }
  Value next_model(const Value& m, Take) const { return m.v < 2 ? Value{m.v + 1} : m; }
  sut_type new_sut() const { return std::make_unique<Permits>(); }
  std::int64_t run(sut_type& p, Take) const { return p->take(); }
  MaybeViolation postcondition(const Value& m, Take, std::int64_t got) const {
    if (got == (m.v < 2 ? 1 : 0)) return std::nullopt;
    return st::Violation{"permits.take", "got " + std::to_string(got)};
  }
  MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

/// A set of small numbers: `insert` returns whether the number was new. The
/// racy one checks membership and appends in two lock sections, so two
/// inserts of one number can both say "new" (a double insert).
struct SetCmd {
  bool insert = true;  // or contains
  std::uint8_t value = 0;
  friend bool operator==(const SetCmd&, const SetCmd&) = default;
};
inline std::string merilo_describe(const SetCmd& c) {
  return std::string(c.insert ? "insert " : "contains ") + std::to_string(c.value);
}
struct Bits {
  std::uint8_t members = 0;
  friend bool operator==(const Bits&, const Bits&) = default;
};
struct SmallSet {
  bool racy = false;
  sync::mutex mu;
  std::vector<std::uint8_t> items;  // guarded by mu
  bool has(std::uint8_t v) const { return std::find(items.begin(), items.end(), v) != items.end(); }
  bool insert(std::uint8_t v) {
    if (!racy) {
      std::lock_guard lock(mu);
      if (has(v)) return false;
      items.push_back(v);
      return true;
    }
    bool found = false;
    {
      std::lock_guard lock(mu);
      found = has(v);
    }
    if (found) return false;
    std::lock_guard lock(mu);
    items.push_back(v);
    return true;
  }
  bool contains(std::uint8_t v) {
    std::lock_guard lock(mu);
    return has(v);
  }
};
struct SetSpec {
  using model_type = Bits;
  using command_type = SetCmd;
  using response_type = bool;
  using sut_type = std::unique_ptr<SmallSet>;
  bool racy = false;

  Bits initial() const { return {}; }
  st::Gen<SetCmd> command(const Bits&) const {
    return st::construct<SetCmd>(st::element_of<bool>({true, true, false}),
                                 st::integer<std::uint8_t>(0, 1));
  }
  st::Admission precondition(const Bits&, const SetCmd&) const { return st::Admission::admit; }
  Bits next_model(const Bits& m, const SetCmd& c) const {
    return c.insert ? Bits{static_cast<std::uint8_t>(m.members | (1U << c.value))} : m;
  }
  sut_type new_sut() const {
    auto s = std::make_unique<SmallSet>();
    s->racy = racy;
    return s;
  }
  bool run(sut_type& s, const SetCmd& c) const {
    return c.insert ? s->insert(c.value) : s->contains(c.value);
  }
  MaybeViolation postcondition(const Bits& m, const SetCmd& c, bool got) const {
    const bool member = ((m.members >> c.value) & 1U) != 0;
    const bool want = c.insert ? !member : member;
    if (got == want) return std::nullopt;
    return st::Violation{"set.answer",
                         merilo_describe(c) + " answered " + (got ? "true" : "false")};
  }
  MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

/// A queue of capacity 2: `push` refuses when full. The racy push checks an
/// atomic size, stores the item and then bumps the size, so two pushes that
/// both pass the check put a third item in (over capacity).
enum class QOp : std::uint8_t { push, pop };
[[nodiscard]] constexpr std::string_view name(QOp op) noexcept {
  return op == QOp::push ? "push" : "pop";
}
struct Fill {
  std::int64_t size = 0;
  friend bool operator==(const Fill&, const Fill&) = default;
};
struct PairQueue {
  static constexpr int kCapacity = 2;
  bool racy = false;
  sync::atomic<int> size{0};
  sync::mutex mu;
  std::int64_t held = 0;  // guarded by mu: items in the queue (their values do not matter here)
  std::int64_t push() {
    if (!racy) {
      std::lock_guard lock(mu);
      if (held >= kCapacity) return 0;
      ++held;
      size.fetch_add(1);
      return 1;
    }
    if (size.load() >= kCapacity) return 0;
    {
      std::lock_guard lock(mu);
      ++held;
    }
    size.fetch_add(1);
    return 1;
  }
  std::int64_t pop() {
    std::lock_guard lock(mu);
    if (held == 0) return 0;
    --held;
    size.fetch_sub(1);
    return 1;
  }
};
struct QueueSpec {
  using model_type = Fill;
  using command_type = QOp;
  using response_type = std::int64_t;
  using sut_type = std::unique_ptr<PairQueue>;
  bool racy = false;

  Fill initial() const { return {}; }
  st::Gen<QOp> command(const Fill&) const {
    return st::element_of<QOp>({QOp::push, QOp::push, QOp::pop});
  }
  st::Admission precondition(const Fill&, QOp) const { return st::Admission::admit; }
  Fill next_model(const Fill& m, QOp op) const {
    if (op == QOp::push) return m.size < PairQueue::kCapacity ? Fill{m.size + 1} : m;
    return m.size > 0 ? Fill{m.size - 1} : m;
  }
  sut_type new_sut() const {
    auto q = std::make_unique<PairQueue>();
    q->racy = racy;
    return q;
  }
  std::int64_t run(sut_type& q, QOp op) const { return op == QOp::push ? q->push() : q->pop(); }
  MaybeViolation postcondition(const Fill& m, QOp op, std::int64_t got) const {
    const std::int64_t want =
        op == QOp::push ? (m.size < PairQueue::kCapacity ? 1 : 0) : (m.size > 0 ? 1 : 0);
    if (got == want) return std::nullopt;
    return st::Violation{"queue.answer",
                         std::string(name(op)) + " answered " + std::to_string(got)};
  }
  MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

/// A counter whose increment takes a lock only every other time a system
/// is built anywhere in the process: the same schedule meets other points.
inline std::atomic<int> g_built{0};
struct Flaky {
  bool locks = false;
  sync::mutex mu;
  sync::atomic<std::int64_t> n{0};
  std::int64_t inc() {
    if (locks) {
      std::lock_guard lock(mu);
      return n.fetch_add(1) + 1;
    }
    return n.fetch_add(1) + 1;
  }
};
struct FlakySpec : CounterSpec {
  using sut_type = std::unique_ptr<Flaky>;
  sut_type new_sut() const {
    auto f = std::make_unique<Flaky>();
    f->locks = (g_built.fetch_add(1) % 2) == 1;
    return f;
  }
  std::int64_t run(sut_type& f, Op op) const { return op == Op::inc ? f->inc() : f->n.load(); }
  MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

}  // namespace controlled

#endif  // MERILO_TESTS_PARALLEL_CONTROLLED_SYSTEMS_HPP
