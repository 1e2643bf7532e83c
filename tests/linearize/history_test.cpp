// history_test.cpp — check_history() and the built-in models: hand-made
// histories for each rule, agreement with a brute-force oracle, and 10k-op
// simulated register histories.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <merilo/linearize/history.hpp>
#include <merilo/linearize/models.hpp>

#include "register_sim.hpp"
#include "small_models.hpp"

namespace merilo::linearize {
namespace {

using RegOp = Operation<RegisterCmd, RegisterResponse>;
using KvOp = Operation<KvCmd, KvResponse>;
using QueueOp = Operation<QueueCmd, QueueResponse>;

RegOp reg_op(RegisterCmd c, std::optional<RegisterResponse> r, std::int64_t in, std::int64_t out) {
  return RegOp{std::move(c), std::move(r), in, out};
}
RegisterResponse got(std::optional<std::int64_t> v) { return RegisterResponse::of(v); }
const RegisterResponse kOk{};

template <class Op>
Verdict verdict_of(const std::vector<Op>& ops) {
  if constexpr (std::is_same_v<Op, RegOp>)
    return check_history(RegisterSpec{}, RegisterModel{}, ops, {}).verdict;
  if constexpr (std::is_same_v<Op, KvOp>)
    return check_history(KvSpec{}, KvModel{}, ops, {}).verdict;
  if constexpr (std::is_same_v<Op, QueueOp>)
    return check_history(QueueSpec{}, QueueModel{}, ops, {}).verdict;
}

// --- register rules ---------------------------------------------------------

// The event list puts calls before returns at one instant (they overlap)
// and keeps operations in their given order among equal events, whatever
// the order the operations are handed in.
TEST(History, ACallAtTheInstantOfAReturnOverlapsIt) {
  // The read is invoked as the write returns: it may still see the old value.
  std::vector<RegOp> ops = {reg_op(RegisterCmd::write(1), kOk, 0, 5),
                            reg_op(RegisterCmd::read(), got(std::nullopt), 5, 9)};
  EXPECT_EQ(verdict_of(ops), Verdict::linearizable);
  std::reverse(ops.begin(), ops.end());
  EXPECT_EQ(verdict_of(ops), Verdict::linearizable);
  // One instant later it may not.
  ops = {reg_op(RegisterCmd::write(1), kOk, 0, 5),
         reg_op(RegisterCmd::read(), got(std::nullopt), 6, 9)};
  EXPECT_EQ(verdict_of(ops), Verdict::not_linearizable);
}

TEST(History, OperationsOfOneInstantArePlacedInTheirGivenOrder) {
  // Three writes invoked and returned at the same instants: every order is
  // valid, and the search tries them as given, so the order it reports is
  // the given one.
  const std::vector<RegOp> ops = {
      reg_op(RegisterCmd::write(3), kOk, 1, 4), reg_op(RegisterCmd::write(1), kOk, 1, 4),
      reg_op(RegisterCmd::write(2), kOk, 1, 4), reg_op(RegisterCmd::read(), got(2), 7, 8)};
  const auto r = check_history(RegisterSpec{}, RegisterModel{}, ops, HistoryOptions{});
  ASSERT_EQ(r.verdict, Verdict::linearizable);
  ASSERT_EQ(r.orders.size(), 1U);
  EXPECT_EQ(r.orders[0], (std::vector<std::size_t>{0, 1, 2, 3}));
}

TEST(History, HeaderExampleHolds) {  // the example at the top of history.hpp
  std::vector<Operation<RegisterCmd, RegisterResponse>> ops = {
      {RegisterCmd::write(1), RegisterResponse{}, 0, 10},
      {RegisterCmd::write(2), RegisterResponse{}, 11, 20},
      {RegisterCmd::read(), RegisterResponse::of(1), 21, 30},
  };
  auto r = check_history(RegisterSpec{}, RegisterModel{}, ops, HistoryOptions{});
  ASSERT_EQ(r.verdict, Verdict::not_linearizable);
  EXPECT_EQ(r.explanation.prefix, (std::vector<std::size_t>{0, 1}));
  EXPECT_TRUE(r.explanation.longest);
  EXPECT_EQ(r.explanation.returned, std::optional<std::size_t>(2));
  ASSERT_EQ(r.explanation.candidates.size(), 1U);
  EXPECT_EQ(r.explanation.candidates[0].violation,
            std::optional<std::string>("read 1, but the register held 2"));
}

TEST(History, RegisterReadsNullBeforeAnyWrite) {
  std::vector<RegOp> ops = {reg_op(RegisterCmd::read(), got(std::nullopt), 0, 1),
                            reg_op(RegisterCmd::write(3), kOk, 2, 3),
                            reg_op(RegisterCmd::read(), got(3), 4, 5)};
  EXPECT_EQ(verdict_of(ops), Verdict::linearizable);
  ops[2].response = got(std::nullopt);
  EXPECT_EQ(verdict_of(ops), Verdict::not_linearizable);
}

TEST(History, RegisterReadMayGoEitherSideOfAnOverlappingWrite) {
  std::vector<RegOp> ops = {
      reg_op(RegisterCmd::write(1), kOk, 0, 1), reg_op(RegisterCmd::write(2), kOk, 2, 10),
      reg_op(RegisterCmd::read(), got(1), 3, 4), reg_op(RegisterCmd::read(), got(2), 5, 6)};
  EXPECT_EQ(verdict_of(ops), Verdict::linearizable);
  // ...but not back again: 2 then 1 with the second read after the first.
  ops[2].response = got(2);
  ops[3].response = got(1);
  EXPECT_EQ(verdict_of(ops), Verdict::not_linearizable);
}

TEST(History, RegisterCasSwapsOnlyWhenItHoldsExpected) {
  std::vector<RegOp> ops = {reg_op(RegisterCmd::write(1), kOk, 0, 1),
                            reg_op(RegisterCmd::cas(1, 2), kOk, 2, 3),
                            reg_op(RegisterCmd::read(), got(2), 4, 5)};
  EXPECT_EQ(verdict_of(ops), Verdict::linearizable);
  ops[1].command = RegisterCmd::cas(7, 2);  // did not hold 7, so cannot have swapped
  EXPECT_EQ(verdict_of(ops), Verdict::not_linearizable);
}

TEST(History, RegisterCasFailMeansItDidNotHoldExpected) {
  std::vector<RegOp> ops = {reg_op(RegisterCmd::write(1), kOk, 0, 1),
                            reg_op(RegisterCmd::cas(1, 2), RegisterResponse::fail(), 2, 3),
                            reg_op(RegisterCmd::read(), got(1), 4, 5)};
  EXPECT_EQ(verdict_of(ops), Verdict::not_linearizable) << "it held 1: the cas cannot fail";
  ops[1].command = RegisterCmd::cas(5, 2);
  EXPECT_EQ(verdict_of(ops), Verdict::linearizable);
}

TEST(History, AnInfoWriteMayTakeEffectLaterOrNever) {
  // write 5 never returned (info). A read much later may see it or not.
  std::vector<RegOp> ops = {reg_op(RegisterCmd::write(1), kOk, 0, 1),
                            reg_op(RegisterCmd::write(5), std::nullopt, 2, kNever),
                            reg_op(RegisterCmd::read(), got(1), 100, 101),
                            reg_op(RegisterCmd::read(), got(5), 200, 201)};
  EXPECT_EQ(verdict_of(ops), Verdict::linearizable) << "took effect between the reads";
  ops[3].response = got(1);
  EXPECT_EQ(verdict_of(ops), Verdict::linearizable) << "never took effect";
  ops[2].response = got(5);
  EXPECT_EQ(verdict_of(ops), Verdict::not_linearizable) << "cannot take effect twice";
  // ...and it cannot take effect before it was invoked.
  std::vector<RegOp> early = {reg_op(RegisterCmd::read(), got(5), 0, 1),
                              reg_op(RegisterCmd::write(5), std::nullopt, 2, kNever)};
  EXPECT_EQ(verdict_of(early), Verdict::not_linearizable);
}

TEST(History, AnInfoCasMaySwapOrNot) {
  std::vector<RegOp> ops = {reg_op(RegisterCmd::write(1), kOk, 0, 1),
                            reg_op(RegisterCmd::cas(1, 2), std::nullopt, 2, kNever),
                            reg_op(RegisterCmd::read(), got(2), 10, 11)};
  EXPECT_EQ(verdict_of(ops), Verdict::linearizable);
  ops[2].response = got(1);
  EXPECT_EQ(verdict_of(ops), Verdict::linearizable);
  ops[2].response = got(3);
  EXPECT_EQ(verdict_of(ops), Verdict::not_linearizable);
}

TEST(History, ExplainsTheDeepestDeadEnd) {
  std::vector<RegOp> ops = {reg_op(RegisterCmd::write(1), kOk, 0, 1),
                            reg_op(RegisterCmd::write(2), kOk, 2, 3),
                            reg_op(RegisterCmd::read(), got(1), 4, 5)};
  auto r = check_history(RegisterSpec{}, RegisterModel{}, ops, {});
  ASSERT_EQ(r.verdict, Verdict::not_linearizable);
  EXPECT_EQ(r.explanation.prefix, (std::vector<std::size_t>{0, 1}));
  ASSERT_TRUE(r.explanation.returned.has_value());
  EXPECT_EQ(*r.explanation.returned, 2U);
  ASSERT_EQ(r.explanation.candidates.size(), 1U);
  EXPECT_EQ(r.explanation.candidates[0].operation, 2U);
  EXPECT_EQ(r.explanation.candidates[0].violation,
            std::optional<std::string>("read 1, but the register held 2"));
}

TEST(History, KeyedRegistersAreIndependent) {
  std::vector<RegOp> ops = {reg_op(RegisterCmd::write(1, "a"), kOk, 0, 1),
                            reg_op(RegisterCmd::read("b"), got(std::nullopt), 2, 3),
                            reg_op(RegisterCmd::read("a"), got(1), 4, 5)};
  auto r = check_history(RegisterSpec{}, RegisterModel{}, ops, {});
  EXPECT_EQ(r.verdict, Verdict::linearizable);
  EXPECT_EQ(r.partitions, (std::vector<std::string>{"a", "b"}));
}

// --- kv ------------------------------------------------------------------------

KvOp kv(KvCmd::Kind kind, std::string key, std::string value, std::optional<std::string> result,
        std::int64_t in, std::int64_t out) {
  std::optional<KvResponse> r;
  if (result) r = KvResponse{false, *result};
  return KvOp{KvCmd{kind, std::move(key), std::move(value)}, r, in, out};
}

TEST(History, KvKeyNeverWrittenReadsEmpty) {
  std::vector<KvOp> ops = {kv(KvCmd::Kind::get, "x", "", "", 0, 1)};
  EXPECT_EQ(verdict_of(ops), Verdict::linearizable);
  ops[0].response->value = "a";
  EXPECT_EQ(verdict_of(ops), Verdict::not_linearizable);
}

TEST(History, KvAppendsInOrderPerKey) {
  std::vector<KvOp> ops = {
      kv(KvCmd::Kind::put, "x", "a", "", 0, 1),     kv(KvCmd::Kind::append, "x", "b", "", 2, 10),
      kv(KvCmd::Kind::append, "y", "z", "", 2, 3),  kv(KvCmd::Kind::append, "x", "c", "", 3, 10),
      kv(KvCmd::Kind::get, "x", "", "acb", 11, 12), kv(KvCmd::Kind::get, "y", "", "z", 11, 12)};
  auto r = check_history(KvSpec{}, KvModel{}, ops, {});
  EXPECT_EQ(r.verdict, Verdict::linearizable);
  EXPECT_EQ(r.partitions.size(), 2U);
  ops[4].response->value = "abcb";
  auto bad = check_history(KvSpec{}, KvModel{}, ops, {});
  ASSERT_EQ(bad.verdict, Verdict::not_linearizable);
  EXPECT_EQ(bad.explanation.partition, "x");
}

// --- queue -------------------------------------------------------------------

QueueOp enq(std::int64_t v, std::int64_t in, std::int64_t out) {
  return QueueOp{QueueCmd{QueueCmd::Kind::enqueue, v, {}}, QueueResponse{}, in, out};
}
QueueOp deq(std::optional<std::int64_t> v, std::int64_t in, std::int64_t out) {
  return QueueOp{QueueCmd{QueueCmd::Kind::dequeue, 0, {}}, QueueResponse{false, v}, in, out};
}

TEST(History, QueueIsFifo) {
  std::vector<QueueOp> ops = {enq(1, 0, 1), enq(2, 2, 3), deq(1, 4, 5), deq(2, 6, 7),
                              deq(std::nullopt, 8, 9)};
  EXPECT_EQ(verdict_of(ops), Verdict::linearizable);
  std::swap(ops[2].response, ops[3].response);
  EXPECT_EQ(verdict_of(ops), Verdict::not_linearizable);
}

TEST(History, QueueOverlappingEnqueuesMayDequeueInEitherOrder) {
  std::vector<QueueOp> ops = {enq(1, 0, 5), enq(2, 1, 6), deq(2, 7, 8), deq(1, 9, 10)};
  EXPECT_EQ(verdict_of(ops), Verdict::linearizable);
}

TEST(History, QueueEmptyDequeueNeedsAnEmptyQueue) {
  std::vector<QueueOp> ops = {enq(1, 0, 1), deq(std::nullopt, 2, 3)};
  EXPECT_EQ(verdict_of(ops), Verdict::not_linearizable);
  // An info dequeue may have taken the 1 away.
  ops.insert(ops.begin() + 1,
             QueueOp{QueueCmd{QueueCmd::Kind::dequeue, 0, {}}, std::nullopt, 1, kNever});
  ops[2].invoked_at = 4;
  ops[2].returned_at = 5;
  EXPECT_EQ(verdict_of(ops), Verdict::linearizable);
}

// --- API rules -------------------------------------------------------------

TEST(History, RefusesAnOperationThatReturnsBeforeItIsInvoked) {
  std::vector<RegOp> ops = {reg_op(RegisterCmd::read(), got(std::nullopt), 5, 4)};
  auto r = check_history(RegisterSpec{}, RegisterModel{}, ops, {});
  EXPECT_EQ(r.verdict, Verdict::usage_error);
  EXPECT_EQ(r.error, "operation 0: returned at 4, before it was invoked at 5");
}

struct ThrowingSpec {
  std::optional<std::string> postcondition(const RegisterModel&, const RegisterCmd&,
                                           const RegisterResponse&) const {
    throw std::runtime_error("spec exploded");
  }
  RegisterModel next_model(const RegisterModel& m, const RegisterCmd&) const { return m; }
};

TEST(History, ReportsAThrowingSpecAsCrashed) {
  std::vector<RegOp> ops = {reg_op(RegisterCmd::read(), got(std::nullopt), 0, 1)};
  auto r = check_history(ThrowingSpec{}, RegisterModel{}, ops, {});
  EXPECT_EQ(r.verdict, Verdict::crashed);
  EXPECT_EQ(r.error, "the spec or model threw: spec exploded");
}

TEST(History, EmptyHistoryIsLinearizable) {
  std::vector<RegOp> ops;
  EXPECT_EQ(check_history(RegisterSpec{}, RegisterModel{}, ops, {}).verdict, Verdict::linearizable);
}

// --- lost values (RegisterSpec declares value_of/reads_value/writes_value) ---

TEST(History, AReadOfAnOverwrittenValueIsRefused) {
  // write 1, then write 2, then a read of 1: 1 is lost once 2 is written.
  std::vector<RegOp> ops = {reg_op(RegisterCmd::write(1), kOk, 0, 1),
                            reg_op(RegisterCmd::write(2), kOk, 2, 3),
                            reg_op(RegisterCmd::read(), got(1), 4, 5)};
  auto r = check_history(RegisterSpec{}, RegisterModel{}, ops, {});
  EXPECT_EQ(r.verdict, Verdict::not_linearizable);
  // A write of 1 that never returned may still take effect after 2.
  ops.push_back(reg_op(RegisterCmd::write(1), std::nullopt, 2, kNever));
  EXPECT_EQ(check_history(RegisterSpec{}, RegisterModel{}, ops, {}).verdict, Verdict::linearizable);
  // So may a cas to 1 that never returned, from 2.
  ops.back() = reg_op(RegisterCmd::cas(2, 1), std::nullopt, 2, kNever);
  EXPECT_EQ(check_history(RegisterSpec{}, RegisterModel{}, ops, {}).verdict, Verdict::linearizable);
  // ...but not one that failed: it changed nothing.
  ops.back() = reg_op(RegisterCmd::cas(2, 1), RegisterResponse::fail(), 2, 6);
  EXPECT_EQ(check_history(RegisterSpec{}, RegisterModel{}, ops, {}).verdict,
            Verdict::not_linearizable);
}

TEST(History, AValueWrittenTwiceIsNotLostWhileOneWriterRemains) {
  // Values need not be unique: a second write of 1 revives it.
  std::vector<RegOp> ops = {
      reg_op(RegisterCmd::write(1), kOk, 0, 1), reg_op(RegisterCmd::write(2), kOk, 2, 3),
      reg_op(RegisterCmd::write(1), kOk, 2, 8), reg_op(RegisterCmd::read(), got(1), 4, 5),
      reg_op(RegisterCmd::read(), got(1), 6, 7)};
  EXPECT_EQ(verdict_of(ops), Verdict::linearizable);
  // A swapped cas needs its expected value just like a read.
  ops[4] = reg_op(RegisterCmd::cas(2, 3), kOk, 6, 7);
  EXPECT_EQ(verdict_of(ops), Verdict::not_linearizable);
  ops[2] = reg_op(RegisterCmd::write(1), kOk, 4, 8);  // now 1 may come back after the cas
  ops[3] = reg_op(RegisterCmd::read(), got(1), 9, 10);
  EXPECT_EQ(verdict_of(ops), Verdict::linearizable);
}

TEST(History, TheInitialNullIsLostOnceWritten) {
  std::vector<RegOp> ops = {reg_op(RegisterCmd::write(1), kOk, 0, 1),
                            reg_op(RegisterCmd::read(), got(std::nullopt), 2, 5),
                            reg_op(RegisterCmd::read(), got(1), 2, 3)};
  EXPECT_EQ(verdict_of(ops), Verdict::not_linearizable);  // invoked after 1 was written
  ops[1].invoked_at = 0;                                  // overlapping the write: it may go first
  EXPECT_EQ(verdict_of(ops), Verdict::linearizable);
  ops[2] = reg_op(RegisterCmd::cas(1, 2), std::nullopt, 2, kNever);  // no writer of null left
  ops[1].invoked_at = 2;
  EXPECT_EQ(verdict_of(ops), Verdict::not_linearizable);
}

// --- against the oracle -----------------------------------------------------

using testing::Cmd;
using testing::SmallHistory;
using SmallOp = Operation<Cmd, int>;

/// Tries every order of the operations: completed ones must all be placed,
/// pending ones (no response) may be placed after their invoke or left out.
template <class S, class M>
bool oracle(const S& spec, const M& model, const std::vector<SmallOp>& ops,
            std::vector<bool>& placed) {
  bool all_done = true;
  for (std::size_t i = 0; i < ops.size(); ++i)
    all_done = all_done && (placed[i] || !ops[i].response);
  if (all_done) return true;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (placed[i]) continue;
    bool allowed = true;
    for (std::size_t j = 0; j < ops.size() && allowed; ++j) {
      allowed = placed[j] || j == i || !ops[j].response || ops[j].returned_at >= ops[i].invoked_at;
    }
    if (!allowed) continue;
    if (ops[i].response && spec.postcondition(model, ops[i].command, *ops[i].response)) continue;
    placed[i] = true;
    const bool found = oracle(spec, spec.next_model(model, ops[i].command), ops, placed);
    placed[i] = false;
    if (found) return true;
  }
  return false;
}

/// The most operations any valid order places (real time kept, every
/// postcondition holding), whether or not it can be completed.
template <class S, class M>
std::size_t longest_valid(const S& spec, const M& model, const std::vector<SmallOp>& ops,
                          std::vector<bool>& placed, std::size_t depth) {
  std::size_t best = depth;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (placed[i]) continue;
    bool allowed = true;
    for (std::size_t j = 0; j < ops.size() && allowed; ++j) {
      allowed = placed[j] || j == i || !ops[j].response || ops[j].returned_at >= ops[i].invoked_at;
    }
    if (!allowed) continue;
    if (ops[i].response && spec.postcondition(model, ops[i].command, *ops[i].response)) continue;
    placed[i] = true;
    best = std::max(
        best, longest_valid(spec, spec.next_model(model, ops[i].command), ops, placed, depth + 1));
    placed[i] = false;
  }
  return best;
}

/// Not linearizable: the explanation's prefix is a valid order that does
/// not place the operation it is stuck on, and when it claims to be the
/// longest (and no operation is pending, which it may leave out), no valid
/// order places more.
template <class S, class M, class V>
void expect_real_dead_end(const S& spec, const M& initial, const std::vector<SmallOp>& ops,
                          const DeadEnd<V>& dead_end) {
  ASSERT_TRUE(dead_end.returned.has_value());
  M model = initial;
  std::vector<bool> done(ops.size(), false);
  for (const std::size_t i : dead_end.prefix) {
    ASSERT_NE(i, *dead_end.returned);
    for (std::size_t j = 0; j < ops.size(); ++j) {
      ASSERT_FALSE(!done[j] && j != i && ops[j].response && ops[j].returned_at < ops[i].invoked_at);
    }
    if (ops[i].response) {
      ASSERT_FALSE(spec.postcondition(model, ops[i].command, *ops[i].response));
    }
    model = spec.next_model(model, ops[i].command);
    done[i] = true;
  }
  const bool any_pending =
      std::any_of(ops.begin(), ops.end(), [](const SmallOp& o) { return !o.response; });
  if (!dead_end.longest || any_pending) return;
  std::vector<bool> placed(ops.size(), false);
  EXPECT_EQ(dead_end.prefix.size(), longest_valid(spec, initial, ops, placed, 0));
}

/// `any_pending`: any call (not only a thread's last) may never have
/// returned, as when Jepsen gives a crashed process's successor its thread.
template <class S, class M>
void agree_with_oracle(const S& spec, const M& initial, std::uint64_t seed, int cases,
                       bool any_pending = false) {
  testing::Rng rng(seed);
  int yes = 0;
  int no = 0;
  for (int n = 0; n < cases; ++n) {
    const int threads = 2 + rng.below(3);
    auto histories = testing::generate(spec, initial, rng, threads, 4, 9, rng.below(2) == 0);
    std::vector<SmallOp> ops;
    for (const auto& h : histories) {
      for (std::size_t i = 0; i < h.size(); ++i) {
        SmallOp op{h[i].command, h[i].response, h[i].invoked_at, h[i].returned_at};
        // A thread's last call sometimes never returned.
        if ((any_pending || i + 1 == h.size()) && rng.below(4) == 0) op.response.reset();
        ops.push_back(op);
      }
    }
    std::vector<bool> placed(ops.size(), false);
    const bool truth = oracle(spec, initial, ops, placed);
    auto r = check_history(spec, initial, ops, HistoryOptions{});
    SCOPED_TRACE("seed " + std::to_string(seed) + " case " + std::to_string(n));
    ASSERT_EQ(r.verdict, truth ? Verdict::linearizable : Verdict::not_linearizable);
    (truth ? yes : no)++;
    if (!truth) {
      expect_real_dead_end(spec, initial, ops, r.explanation);
      continue;
    }
    // The order places every completed operation, respects real time and
    // satisfies the model.
    ASSERT_EQ(r.orders.size(), 1U);
    M model = initial;
    std::vector<bool> done(ops.size(), false);
    for (const std::size_t i : r.orders[0]) {
      for (std::size_t j = 0; j < ops.size(); ++j) {
        ASSERT_FALSE(!done[j] && j != i && ops[j].response &&
                     ops[j].returned_at < ops[i].invoked_at);
      }
      if (ops[i].response) {
        ASSERT_FALSE(spec.postcondition(model, ops[i].command, *ops[i].response));
      }
      model = spec.next_model(model, ops[i].command);
      done[i] = true;
    }
    for (std::size_t j = 0; j < ops.size(); ++j) ASSERT_TRUE(done[j] || !ops[j].response);
  }
  EXPECT_GT(yes, cases / 5);
  EXPECT_GT(no, cases / 5);
}

TEST(HistoryOracle, AgreesOnRandomRegisterHistories) {
  agree_with_oracle(testing::RegisterSpec{}, testing::Reg{0}, 11, 1500);
}
TEST(HistoryOracle, AgreesOnRandomRegisterHistoriesPlacingReadsGreedily) {
  agree_with_oracle(testing::ReadOnlyRegisterSpec{}, testing::Reg{0}, 14, 1500);
}
TEST(HistoryOracle, AgreesOnRandomRegisterHistoriesTrackingValues) {
  agree_with_oracle(testing::ValuesRegisterSpec{}, testing::Reg{0}, 15, 2000);
}
TEST(HistoryOracle, AgreesOnRandomRegisterHistoriesTrackingValuesWithoutSetters) {
  agree_with_oracle(testing::ValuesOnlyRegisterSpec{}, testing::Reg{0}, 18, 2000);
}
TEST(HistoryOracle, AgreesOnRandomRegisterHistoriesTrackingValuesManyPending) {
  agree_with_oracle(testing::ValuesRegisterSpec{}, testing::Reg{0}, 16, 2000, true);
}
TEST(HistoryOracle, AgreesOnRandomRegisterHistoriesManyPending) {
  agree_with_oracle(testing::ReadOnlyRegisterSpec{}, testing::Reg{0}, 17, 1000, true);
}
TEST(HistoryOracle, AgreesOnRandomQueueHistories) {
  agree_with_oracle(testing::QueueSpec{}, testing::Queue{}, 12, 1500);
}
TEST(HistoryOracle, AgreesOnRandomSetHistories) {
  agree_with_oracle(testing::SetSpec{}, testing::Set{}, 13, 1500);
}

// --- simulated 10k-operation histories ------------------------------------------

TEST(HistorySimulated, A10kOperationLinearizableRegisterPasses) {
  sim::Options o;
  o.processes = 10;
  o.operations = 10'000;
  o.seed = 21;
  o.info_per_mille = 0;
  const auto events = sim::simulate_register(o);
  const auto ops = sim::to_operations(events);
  ASSERT_GT(ops.size(), 9'900U);
  HistoryOptions limits;
  limits.budget = 2'000'000;
  auto r = check_history(RegisterSpec{}, RegisterModel{}, ops, limits);
  ASSERT_EQ(r.verdict, Verdict::linearizable) << r.evaluations << " evaluations";
  EXPECT_LT(r.evaluations, limits.budget);
}

TEST(HistorySimulated, OneInjectedStaleReadIsFound) {
  sim::Options o;
  o.processes = 10;
  o.operations = 10'000;
  o.seed = 21;  // the history of the test above, with one stale read
  o.info_per_mille = 0;
  o.stale_read_at = 6'000;
  const auto ops = sim::to_operations(sim::simulate_register(o));
  HistoryOptions limits;
  limits.budget = 2'000'000;
  auto r = check_history(RegisterSpec{}, RegisterModel{}, ops, limits);
  ASSERT_EQ(r.verdict, Verdict::not_linearizable) << r.evaluations << " evaluations";
  // The dead end is at the stale read.
  ASSERT_TRUE(r.explanation.returned.has_value());
  const auto& stale = ops[*r.explanation.returned];
  EXPECT_EQ(stale.command.kind, RegisterCmd::Kind::read);
  ASSERT_FALSE(r.explanation.candidates.empty());
  bool named = false;
  for (const auto& c : r.explanation.candidates) {
    named = named || (c.operation == *r.explanation.returned && c.violation.has_value());
  }
  EXPECT_TRUE(named) << "the stale read itself is listed with its violation";
}

TEST(HistorySimulated, TwentyProcessesWithInfosPass) {
  sim::Options o;
  o.processes = 20;
  o.operations = 3'000;
  o.seed = 27;
  o.info_per_mille = 5;
  const auto ops = sim::to_operations(sim::simulate_register(o));
  HistoryOptions limits;
  limits.budget = 5'000'000;
  auto r = check_history(RegisterSpec{}, RegisterModel{}, ops, limits);
  EXPECT_EQ(r.verdict, Verdict::linearizable) << r.evaluations << " evaluations";
}

TEST(HistorySimulated, ManyInfosPass) {
  sim::Options o;
  o.processes = 10;
  o.operations = 10'000;
  o.seed = 23;
  o.info_per_mille = 20;
  const auto ops = sim::to_operations(sim::simulate_register(o));
  HistoryOptions limits;
  limits.budget = 5'000'000;
  auto r = check_history(RegisterSpec{}, RegisterModel{}, ops, limits);
  EXPECT_EQ(r.verdict, Verdict::linearizable) << r.evaluations << " evaluations";
}

TEST(HistorySimulated, FiftyProcessesOnOneRegisterAreDecided) {
  sim::Options o;
  o.processes = 50;
  o.operations = 1'000;
  o.seed = 29;
  o.info_per_mille = 5;
  const auto ops = sim::to_operations(sim::simulate_register(o));
  HistoryOptions limits;
  limits.budget = 2'000'000;
  auto r = check_history(RegisterSpec{}, RegisterModel{}, ops, limits);
  EXPECT_EQ(r.verdict, Verdict::linearizable) << r.evaluations << " evaluations";
}

TEST(HistorySimulated, FiftyProcessesWithAStaleReadAreRefuted) {
  sim::Options o;
  o.processes = 50;
  o.operations = 300;
  o.seed = 29;
  o.info_per_mille = 5;
  o.stale_read_at = 150;
  const auto ops = sim::to_operations(sim::simulate_register(o));
  HistoryOptions limits;
  limits.budget = 2'000'000;
  auto r = check_history(RegisterSpec{}, RegisterModel{}, ops, limits);
  EXPECT_EQ(r.verdict, Verdict::not_linearizable) << r.evaluations << " evaluations";
}

TEST(HistoryBudget, EndsUndecidedWithTheLongestPartialLinearization) {
  sim::Options o;
  o.operations = 2'000;
  o.seed = 24;
  const auto ops = sim::to_operations(sim::simulate_register(o));
  HistoryOptions limits;
  limits.budget = 500;
  auto r = check_history(RegisterSpec{}, RegisterModel{}, ops, limits);
  ASSERT_EQ(r.verdict, Verdict::undecided);
  EXPECT_EQ(r.stop, SearchStop::budget);
  EXPECT_EQ(r.evaluations, 500U);
  EXPECT_FALSE(r.explanation.prefix.empty());
  EXPECT_LE(r.explanation.prefix.size(), 500U);
}

TEST(HistoryBudget, EndsUndecidedWhenTheTimeoutPasses) {
  sim::Options o;
  o.operations = 5'000;
  o.seed = 25;
  const auto ops = sim::to_operations(sim::simulate_register(o));
  HistoryOptions limits;
  limits.timeout = std::chrono::nanoseconds(1);  // already over at the first clock read
  auto r = check_history(RegisterSpec{}, RegisterModel{}, ops, limits);
  ASSERT_EQ(r.verdict, Verdict::undecided);
  EXPECT_EQ(r.stop, SearchStop::timeout);
}

TEST(HistoryBudget, AFullCacheKeepsTheVerdictCorrect) {
  sim::Options o;
  o.operations = 3'000;
  o.seed = 26;
  const auto ops = sim::to_operations(sim::simulate_register(o));
  HistoryOptions limits;
  limits.cache_bytes = 4096;
  limits.budget = 200'000;
  auto r = check_history(RegisterSpec{}, RegisterModel{}, ops, limits);
  EXPECT_TRUE(r.cache_full);
  EXPECT_LE(r.cache_bytes, 4096U);
  EXPECT_EQ(r.verdict, Verdict::linearizable) << r.evaluations << " evaluations";
  // With a stale read (which the pre-search check names without filling
  // any cache) the verdict stays "not linearizable".
  o.stale_read_at = 2'000;
  const auto stale = sim::to_operations(sim::simulate_register(o));
  EXPECT_EQ(check_history(RegisterSpec{}, RegisterModel{}, stale, limits).verdict,
            Verdict::not_linearizable);
}

// --- explanations are real dead ends ---------------------------------------------

// `writes` sequential writes of 0, 1, ... then a read of 3: every write
// orders validly, and the read cannot follow them.
std::vector<Operation<testing::Cmd, testing::Resp>> writes_then_stale_read(int writes) {
  std::vector<Operation<testing::Cmd, testing::Resp>> ops;
  for (int i = 0; i < writes; ++i) {
    ops.push_back({testing::Cmd{1, i, 0}, 0, 2 * std::int64_t{i}, 2 * std::int64_t{i} + 1});
  }
  ops.push_back({testing::Cmd{0, 0, 0}, 3, 2 * std::int64_t{writes}, 2 * std::int64_t{writes} + 1});
  return ops;
}

template <class Spec>
void expect_every_write_then_the_read(const Spec& spec, int writes) {
  const auto ops = writes_then_stale_read(writes);
  auto r = check_history(spec, testing::Reg{}, ops, {});
  ASSERT_EQ(r.verdict, Verdict::not_linearizable);
  // The lost-value rule stops an order at the write after 3; the
  // explanation must still be the longest valid order: all the writes.
  ASSERT_EQ(r.explanation.prefix.size(), static_cast<std::size_t>(writes));
  for (std::size_t i = 0; i < r.explanation.prefix.size(); ++i) {
    ASSERT_EQ(r.explanation.prefix[i], i);
  }
  EXPECT_TRUE(r.explanation.longest);
  ASSERT_TRUE(r.explanation.returned.has_value());
  EXPECT_EQ(*r.explanation.returned, ops.size() - 1);
  ASSERT_EQ(r.explanation.candidates.size(), 1U);
  EXPECT_EQ(r.explanation.candidates[0].operation, ops.size() - 1);
  EXPECT_EQ(r.explanation.candidates[0].violation,
            std::optional<std::string>("read 3, holds " + std::to_string(writes - 1)));
}

TEST(HistoryExplanation, AShadowedReadIsExplainedAfterEveryValidWrite) {
  // ValuesRegisterSpec declares sets_value: the read is refuted before the
  // search, and the walk that explains it must not stop at the write of 4.
  expect_every_write_then_the_read(testing::ValuesRegisterSpec{}, 20);
  expect_every_write_then_the_read(testing::ValuesRegisterSpec{}, 10'000);
}

TEST(HistoryExplanation, ALostValueIsExplainedAfterEveryValidWrite) {
  // Without sets_value the search itself refutes it, pruning at the write
  // of 4; the explanation comes from a walk without that pruning.
  expect_every_write_then_the_read(testing::ValuesOnlyRegisterSpec{}, 20);
  expect_every_write_then_the_read(testing::ValuesOnlyRegisterSpec{}, 10'000);
}

TEST(HistoryShadowed, AReadShadowedByASetterIsRefusedBeforeTheSearch) {
  // Twenty overlapping writes, then write 1, write 2 and a read of 1, all
  // sequential: the read is ruled out by real time alone.
  std::vector<RegOp> ops;
  for (std::int64_t i = 0; i < 20; ++i) {
    ops.push_back(reg_op(RegisterCmd::write(100 + i), kOk, 0, 10));
  }
  ops.push_back(reg_op(RegisterCmd::write(1), kOk, 11, 12));
  ops.push_back(reg_op(RegisterCmd::write(2), kOk, 13, 14));
  ops.push_back(reg_op(RegisterCmd::read(), got(1), 15, 16));
  auto r = check_history(RegisterSpec{}, RegisterModel{}, ops, {});
  ASSERT_EQ(r.verdict, Verdict::not_linearizable);
  // The explanation is where an order of the whole history first gets
  // stuck on that read: the fillers, write 1, write 2.
  ASSERT_EQ(r.explanation.prefix.size(), 22U);
  EXPECT_EQ(r.explanation.prefix[20], 20U);
  EXPECT_EQ(r.explanation.prefix[21], 21U);
  ASSERT_TRUE(r.explanation.returned.has_value());
  EXPECT_EQ(*r.explanation.returned, 22U);
  EXPECT_EQ(r.explanation.part_size, ops.size());
  bool named = false;
  for (const auto& c : r.explanation.candidates) {
    named = named || (c.operation == 22U &&
                      c.violation == std::optional<std::string>("read 1, but the register held 2"));
  }
  EXPECT_TRUE(named);
  EXPECT_LT(r.evaluations, 100U);
  // A pending write of 1 may still take effect after 2: not shadowed.
  ops.push_back(reg_op(RegisterCmd::write(1), std::nullopt, 13, kNever));
  EXPECT_EQ(check_history(RegisterSpec{}, RegisterModel{}, ops, {}).verdict, Verdict::linearizable);
  // A cas that failed sets nothing, so it shadows nothing.
  ops.pop_back();
  ops[21] = reg_op(RegisterCmd::cas(5, 2), RegisterResponse::fail(), 13, 14);
  EXPECT_EQ(check_history(RegisterSpec{}, RegisterModel{}, ops, {}).verdict, Verdict::linearizable);
  // A write of the same value does not shadow either.
  ops[21] = reg_op(RegisterCmd::write(1), kOk, 13, 14);
  EXPECT_EQ(check_history(RegisterSpec{}, RegisterModel{}, ops, {}).verdict, Verdict::linearizable);
  // Overlapping the read (equal instants overlap) does not shadow.
  ops[21] = reg_op(RegisterCmd::write(2), kOk, 13, 15);
  EXPECT_EQ(check_history(RegisterSpec{}, RegisterModel{}, ops, {}).verdict, Verdict::linearizable);
  // The initial null is shadowed by any setter that returned before.
  ops[22] = reg_op(RegisterCmd::read(), got(std::nullopt), 15, 16);
  EXPECT_EQ(check_history(RegisterSpec{}, RegisterModel{}, ops, {}).verdict,
            Verdict::not_linearizable);
}

}  // namespace
}  // namespace merilo::linearize
