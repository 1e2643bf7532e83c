// response_model_test.cpp — specs whose next_model sees the response and the
// caller (a bag, a per-producer FIFO queue), in check and check_history, and
// the explanation naming the call no valid order places.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include <merilo/linearize/check.hpp>
#include <merilo/linearize/format.hpp>
#include <merilo/linearize/history.hpp>
#include <merilo/linearize/models.hpp>

namespace lin = merilo::linearize;

namespace {

// --- a per-producer FIFO queue: each caller's items leave in its order -----

enum class Op : std::uint8_t { push, pop };
struct QCmd {
  Op op = Op::pop;
  std::int64_t value = 0;
};
using Popped = std::int64_t;  // a pop's value; -1 for empty; pushes answer 0

/// Per producer (caller), the items it pushed that are still in.
struct PerProducer {
  std::vector<std::deque<std::int64_t>> lanes;
  friend bool operator==(const PerProducer&, const PerProducer&) = default;
  template <class Sink>
  void feed(Sink& sink) const {
    for (const auto& lane : lanes) {
      const std::size_t n = lane.size();
      sink(&n, sizeof n);
      for (const std::int64_t v : lane) sink(&v, sizeof v);
    }
  }
  [[nodiscard]] bool empty() const {
    for (const auto& lane : lanes) {
      if (!lane.empty()) return false;
    }
    return true;
  }
};

struct PerProducerSpec {
  std::optional<std::string> postcondition(const PerProducer& m, const QCmd& c, Popped r) const {
    if (c.op == Op::push) return std::nullopt;
    if (r < 0)
      return m.empty() ? std::nullopt : std::optional<std::string>("empty, but items are in");
    for (const auto& lane : m.lanes) {
      if (!lane.empty() && lane.front() == r) return std::nullopt;
    }
    return "popped " + std::to_string(r) + ", the front of no producer";
  }
  PerProducer next_model(const PerProducer& m, const QCmd& c, Popped r, lin::Caller who) const {
    PerProducer next = m;
    if (c.op == Op::push) {
      if (next.lanes.size() <= who) next.lanes.resize(who + 1);
      next.lanes[who].push_back(c.value);
      return next;
    }
    for (auto& lane : next.lanes) {
      if (!lane.empty() && lane.front() == r) {
        lane.pop_front();
        break;
      }
    }
    return next;
  }
};

static_assert(lin::SpecFor<PerProducerSpec, PerProducer, QCmd, Popped>);
static_assert(lin::StepsOnCaller<PerProducerSpec, PerProducer, QCmd, Popped> &&
              !lin::StepsOnResponse<PerProducerSpec, PerProducer, QCmd, Popped> &&
              !lin::StepsOnCommand<PerProducerSpec, PerProducer, QCmd>);
static_assert(lin::StepsOnResponse<lin::BagSpec, lin::BagModel, lin::BagCmd, lin::BagResponse> &&
              !lin::StepsOnCommand<lin::BagSpec, lin::BagModel, lin::BagCmd>);
static_assert(lin::StepsOnCommand<lin::QueueSpec, lin::QueueModel, lin::QueueCmd>);
/// A postcondition and no next_model of any form is not a spec.
struct NoStep {
  std::optional<std::string> postcondition(const PerProducer&, const QCmd&, Popped) const {
    return std::nullopt;
  }
};
static_assert(!lin::SpecFor<NoStep, PerProducer, QCmd, Popped>);

lin::Call<QCmd, Popped> push(std::int64_t v, std::int64_t at, std::int64_t until) {
  return {QCmd{Op::push, v}, 0, at, until};
}
lin::Call<QCmd, Popped> pop(Popped got, std::int64_t at, std::int64_t until) {
  return {QCmd{Op::pop, 0}, got, at, until};
}

TEST(ResponseModel, PerProducerOrderAcceptsItemsOfTwoProducersInEitherInterleaving) {
  // Producer 0 pushed 1 then 2, producer 1 pushed 3, all before the consumer
  // popped 3, 1, 2: a strict FIFO would refuse 3 first; per producer it fits.
  std::vector<lin::History<QCmd, Popped>> threads = {
      {push(1, 0, 1), push(2, 2, 3)},
      {push(3, 0, 1)},
      {pop(3, 10, 11), pop(1, 12, 13), pop(2, 14, 15)},
  };
  const auto r = lin::check(PerProducerSpec{}, PerProducer{}, threads, 10'000);
  EXPECT_EQ(r.verdict, lin::Verdict::linearizable) << r.error;
}

TEST(ResponseModel, PerProducerOrderRefusesAProducersItemsOutOfItsOrder) {
  std::vector<lin::History<QCmd, Popped>> threads = {
      {push(1, 0, 1), push(2, 2, 3)},
      {pop(2, 10, 11), pop(1, 12, 13)},
  };
  const auto r = lin::check(PerProducerSpec{}, PerProducer{}, threads, 10'000);
  ASSERT_EQ(r.verdict, lin::Verdict::not_linearizable);
  ASSERT_TRUE(r.explanation.unplaceable.has_value());
  EXPECT_EQ(*r.explanation.unplaceable, (lin::CallRef{1, 0}));  // pop -> 2 fits no order
}

TEST(ResponseModel, CheckHistoryGivesTheSpecEachOperationsProcess) {
  using Op2 = lin::Operation<QCmd, Popped>;
  auto op = [](QCmd c, Popped r, std::int64_t at, std::int64_t until, lin::Caller p) {
    Op2 o{c, r, at, until};
    o.process = p;
    return o;
  };
  std::vector<Op2> fits = {op({Op::push, 1}, 0, 0, 1, 0),  op({Op::push, 2}, 0, 2, 3, 0),
                           op({Op::push, 3}, 0, 4, 5, 1),  op({Op::pop, 0}, 3, 10, 11, 2),
                           op({Op::pop, 0}, 1, 12, 13, 2), op({Op::pop, 0}, 2, 14, 15, 2)};
  EXPECT_EQ(lin::check_history(PerProducerSpec{}, PerProducer{}, fits, {}).verdict,
            lin::Verdict::linearizable);
  // The same pushes, all by process 0: now 3 came after 1 and 2 in one lane.
  for (auto& o : fits) {
    if (o.command.op == Op::push) o.process = 0;
  }
  EXPECT_EQ(lin::check_history(PerProducerSpec{}, PerProducer{}, fits, {}).verdict,
            lin::Verdict::not_linearizable);
}

// --- the built-in bag --------------------------------------------------------

using BagOp = lin::Operation<lin::BagCmd, lin::BagResponse>;
BagOp add(std::int64_t v, std::int64_t at, std::int64_t until) {
  return {lin::BagCmd{lin::BagCmd::Kind::add, v, ""}, lin::BagResponse{}, at, until};
}
BagOp take(std::optional<std::int64_t> got, std::int64_t at, std::int64_t until) {
  return {lin::BagCmd{lin::BagCmd::Kind::remove, 0, ""}, lin::BagResponse{got}, at, until};
}

TEST(ResponseModel, BagAcceptsRemovesInAnyOrderOfWhatIsIn) {
  const std::vector<BagOp> ops = {add(1, 0, 1), add(2, 2, 3), take(1, 4, 5), take(2, 6, 7),
                                  take(std::nullopt, 8, 9)};
  const auto r = lin::check_history(lin::BagSpec{}, lin::BagModel{}, ops, {});
  EXPECT_EQ(r.verdict, lin::Verdict::linearizable) << r.error;
}

TEST(ResponseModel, BagRefusesAnElementRemovedTwice) {
  const std::vector<BagOp> ops = {add(1, 0, 1), add(2, 2, 3), take(2, 4, 5), take(2, 6, 7)};
  const auto r = lin::check_history(lin::BagSpec{}, lin::BagModel{}, ops, {});
  ASSERT_EQ(r.verdict, lin::Verdict::not_linearizable);
  ASSERT_EQ(r.explanation.prefix.size(), 3U);
  ASSERT_FALSE(r.explanation.candidates.empty());
  EXPECT_EQ(r.explanation.candidates[0].violation, "removed 2, but the bag held [1]");
}

TEST(ResponseModel, AnOperationWithoutAResponseIsAUsageErrorForAResponseOnlySpec) {
  std::vector<BagOp> ops = {add(1, 0, 1), take(1, 2, 3)};
  ops[1].response.reset();
  const auto r = lin::check_history(lin::BagSpec{}, lin::BagModel{}, ops, {});
  EXPECT_EQ(r.verdict, lin::Verdict::usage_error);
  EXPECT_NE(r.error.find("operation 1 has no response"), std::string::npos) << r.error;
}

// --- naming the call no order places ------------------------------------------

enum class SOp : std::uint8_t { enq, deq, size };
struct SCmd {
  SOp op = SOp::size;
  std::int64_t value = 0;
};
struct SQueue {
  std::deque<std::int64_t> items;
  friend bool operator==(const SQueue&, const SQueue&) = default;
  template <class Sink>
  void feed(Sink& sink) const {
    const std::size_t n = items.size();
    sink(&n, sizeof n);
    for (const std::int64_t v : items) sink(&v, sizeof v);
  }
};
// The two-argument form, as before: a FIFO queue with size().
struct SizedQueueSpec {
  std::optional<std::string> postcondition(const SQueue& m, const SCmd& c, std::int64_t r) const {
    if (c.op == SOp::deq) {
      const std::int64_t front = m.items.empty() ? -1 : m.items.front();
      if (r != front) return "front was " + std::to_string(front);
    }
    if (c.op == SOp::size && r != static_cast<std::int64_t>(m.items.size())) {
      return "size was " + std::to_string(m.items.size());
    }
    return std::nullopt;
  }
  SQueue next_model(const SQueue& m, const SCmd& c) const {
    SQueue next = m;
    if (c.op == SOp::enq) next.items.push_back(c.value);
    if (c.op == SOp::deq && !next.items.empty()) next.items.pop_front();
    return next;
  }
};

TEST(ResponseModel, TheExplanationNamesTheStaleSizeNotTheDequeueBehindIt) {
  // Thread 0 enqueued 1, dequeued it, later found the queue empty; thread
  // 1's size() -> 1 ran between, when the queue was empty: stale. Thread
  // 0's last dequeue is listed first at the dead end (it must follow the
  // size), but the size is what no order places.
  std::vector<lin::History<SCmd, std::int64_t>> threads = {
      {{SCmd{SOp::enq, 1}, 0, 0, 1}, {SCmd{SOp::deq, 0}, 1, 2, 3}, {SCmd{SOp::deq, 0}, -1, 8, 9}},
      {{SCmd{SOp::size, 0}, 1, 4, 5}},
  };
  const auto r = lin::check(SizedQueueSpec{}, SQueue{}, threads, 10'000);
  ASSERT_EQ(r.verdict, lin::Verdict::not_linearizable);
  ASSERT_EQ(r.explanation.next.size(), 2U);
  EXPECT_EQ(r.explanation.next[0].call, (lin::CallRef{0, 2}));
  ASSERT_TRUE(r.explanation.unplaceable.has_value());
  EXPECT_EQ(*r.explanation.unplaceable, (lin::CallRef{1, 0}));
  const std::string text = lin::explain(
      r, 4,
      [&](lin::CallRef c) {
        const auto& call = threads[c.history][c.index];
        const char* names[] = {"enq", "deq", "size"};
        return std::string(names[static_cast<int>(call.command.op)]) + " -> " +
               std::to_string(call.response);
      },
      [](const std::string& v) { return v; });
  EXPECT_NE(text.find("no valid order places thread 1 #0 (size -> 1) anywhere"), std::string::npos)
      << text;
}

TEST(ResponseModel, ARefusedCallIsNamedBeforeOneItHoldsBack) {
  // Thread 1's dequeue -> 2 returned before 2 was enqueued: it fits no
  // order, and it holds thread 0's enqueue of 2 back (real time). Both are
  // placed by no order; the dequeue is the cause.
  std::vector<lin::History<SCmd, std::int64_t>> threads = {
      {{SCmd{SOp::enq, 1}, 0, 3, 5}, {SCmd{SOp::enq, 2}, 0, 7, 13}},
      {{SCmd{SOp::deq, 0}, 2, 3, 5}},
  };
  const auto r = lin::check(SizedQueueSpec{}, SQueue{}, threads, 10'000);
  ASSERT_EQ(r.verdict, lin::Verdict::not_linearizable);
  ASSERT_TRUE(r.explanation.unplaceable.has_value());
  EXPECT_EQ(*r.explanation.unplaceable, (lin::CallRef{1, 0}));
}

TEST(ResponseModel, NoCallIsNamedWhenEachFitsSomeOrderAndTheyOnlyFailTogether) {
  // Two dequeues both got the one item: each fits some order, not both.
  std::vector<lin::History<SCmd, std::int64_t>> threads = {
      {{SCmd{SOp::enq, 1}, 0, 0, 1}, {SCmd{SOp::deq, 0}, 1, 2, 5}},
      {{SCmd{SOp::deq, 0}, 1, 2, 5}},
  };
  const auto r = lin::check(SizedQueueSpec{}, SQueue{}, threads, 10'000);
  ASSERT_EQ(r.verdict, lin::Verdict::not_linearizable);
  EXPECT_FALSE(r.explanation.unplaceable.has_value());
}

}  // namespace
