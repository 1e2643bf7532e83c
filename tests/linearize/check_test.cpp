// check_test.cpp — check() on hand-made histories, and against a brute-force
// oracle on thousands of small random ones.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <merilo/linearize/check.hpp>
#include <merilo/linearize/format.hpp>

#include "small_models.hpp"

namespace merilo::linearize {
namespace {

using testing::Cmd;
using testing::Oracle;
using testing::Queue;
using testing::QueueSpec;
using testing::Reg;
using testing::RegisterSpec;
using testing::Rng;
using testing::Set;
using testing::SetSpec;
using testing::SmallCall;
using testing::SmallHistory;

constexpr std::uint64_t kBudget = 1'000'000;

Cmd read() { return Cmd{0, 0, 0}; }
Cmd write(int v) { return Cmd{1, v, 0}; }
Cmd cas(int from, int to) { return Cmd{2, from, to}; }

static_assert(Model<Reg>);
static_assert(Model<Queue>, "a model with feed() is a Model");
static_assert(!Model<testing::Padded>, "padding bytes cannot be hashed: not a Model");
static_assert(SpecFor<RegisterSpec, Reg, Cmd, int>);
static_assert(!SpecFor<RegisterSpec, Queue, Cmd, int>);

TEST(Check, FindsAnOrderForOverlappingCalls) {
  // write 1 overlaps a read that saw 1, then a read that saw 1.
  std::vector<SmallHistory> h = {
      {SmallCall{write(1), 0, 0, 10}},
      {SmallCall{read(), 1, 2, 5}, SmallCall{read(), 1, 6, 12}},
  };
  auto r = check(RegisterSpec{}, Reg{0}, h, kBudget);
  ASSERT_EQ(r.verdict, Verdict::linearizable) << r.error;
  EXPECT_EQ(testing::validate_order(RegisterSpec{}, Reg{0}, h, r.order, true), "");
  EXPECT_EQ(r.order.front(), (CallRef{0, 0}));
}

TEST(Check, RefusesAStaleReadAndExplainsTheDeadEnd) {
  std::vector<SmallHistory> h = {
      {SmallCall{write(1), 0, 0, 10}},
      {SmallCall{read(), 1, 2, 5}, SmallCall{read(), 0, 6, 12}},
  };
  auto r = check(RegisterSpec{}, Reg{0}, h, kBudget);
  ASSERT_EQ(r.verdict, Verdict::not_linearizable);
  // Deepest: write 1, read 1 placed; then read 0 is violated.
  ASSERT_EQ(r.explanation.prefix.size(), 2U);
  EXPECT_EQ(r.explanation.prefix[0], (CallRef{0, 0}));
  EXPECT_EQ(r.explanation.prefix[1], (CallRef{1, 0}));
  ASSERT_EQ(r.explanation.next.size(), 1U);
  EXPECT_EQ(r.explanation.next[0].call, (CallRef{1, 1}));
  EXPECT_EQ(r.explanation.next[0].why, Blocked::violated);
  EXPECT_EQ(r.explanation.next[0].violation, std::optional<std::string>("read 0, holds 1"));
}

TEST(Check, ACallThatReturnedBeforeAnotherWasInvokedGoesFirst) {
  // read 0 was invoked at 11, after write 1 returned at 10: strictly after.
  std::vector<SmallHistory> h = {{SmallCall{write(1), 0, 0, 10}}, {SmallCall{read(), 0, 11, 12}}};
  auto r = check(RegisterSpec{}, Reg{0}, h, kBudget);
  ASSERT_EQ(r.verdict, Verdict::not_linearizable);
  // The dead end is at the start: read 0 fits the model but write 1 overtook it.
  ASSERT_EQ(r.explanation.prefix.size(), 1U);
  ASSERT_EQ(r.explanation.next.size(), 1U);
  EXPECT_EQ(r.explanation.next[0].why, Blocked::violated);

  // A dead end where one thread's next call reads a value never written and
  // another's was invoked after that read returned.
  std::vector<SmallHistory> h2 = {{SmallCall{write(1), 0, 0, 10}},
                                  {SmallCall{read(), 2, 20, 21}},
                                  {SmallCall{write(3), 0, 30, 40}}};
  auto r2 = check(RegisterSpec{}, Reg{0}, h2, kBudget);
  ASSERT_EQ(r2.verdict, Verdict::not_linearizable);
  ASSERT_EQ(r2.explanation.prefix.size(), 1U);
  ASSERT_EQ(r2.explanation.next.size(), 2U);
  EXPECT_EQ(r2.explanation.next[0].call, (CallRef{1, 0}));
  EXPECT_EQ(r2.explanation.next[0].why, Blocked::violated);
  EXPECT_EQ(r2.explanation.next[1].call, (CallRef{2, 0}));
  EXPECT_EQ(r2.explanation.next[1].why, Blocked::overtaken);
  EXPECT_EQ(r2.explanation.next[1].overtaken_by, (CallRef{1, 0}));
}

TEST(Check, EqualInstantsOverlap) {
  // The write returned at 10 and the read was invoked at 10: they overlap, so
  // the read may go first and see 0.
  std::vector<SmallHistory> h = {{SmallCall{write(1), 0, 0, 10}}, {SmallCall{read(), 0, 10, 12}}};
  auto r = check(RegisterSpec{}, Reg{0}, h, kBudget);
  ASSERT_EQ(r.verdict, Verdict::linearizable);
  EXPECT_EQ(r.order.front(), (CallRef{1, 0}));
}

TEST(Check, IsUndecidedWhenTheBudgetRunsOutNeverPassing) {
  Rng rng(7);
  auto h = testing::generate(RegisterSpec{}, Reg{0}, rng, 4, 6, 24, false);
  auto r = check(RegisterSpec{}, Reg{0}, h, 3);
  ASSERT_EQ(r.verdict, Verdict::undecided);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.evaluations, 3U);
  EXPECT_LE(r.explanation.prefix.size(), 3U);
  EXPECT_EQ(testing::validate_order(RegisterSpec{}, Reg{0}, h, r.explanation.prefix, false), "");
  auto zero = check(RegisterSpec{}, Reg{0}, h, 0);
  EXPECT_EQ(zero.verdict, Verdict::undecided);
}

TEST(Check, ACasThatFailedNeedsAnOrderWhereTheRegisterDidNotHoldExpected) {
  // cas 0->2 failed, so it must go after write 1; the later read of 1 agrees.
  std::vector<SmallHistory> ok = {{SmallCall{write(1), 0, 0, 10}, SmallCall{read(), 1, 20, 30}},
                                  {SmallCall{cas(0, 2), 0, 5, 15}}};
  EXPECT_EQ(check(RegisterSpec{}, Reg{0}, ok, kBudget).verdict, Verdict::linearizable);
  // A failed cas 0->2 that finished before the write started cannot fail.
  std::vector<SmallHistory> bad = {{SmallCall{write(1), 0, 20, 30}},
                                   {SmallCall{cas(0, 2), 0, 5, 15}}};
  EXPECT_EQ(check(RegisterSpec{}, Reg{0}, bad, kBudget).verdict, Verdict::not_linearizable);
}

TEST(Check, EmptyHistoriesAreLinearizable) {
  std::vector<SmallHistory> h = {{}, {}};
  auto r = check(RegisterSpec{}, Reg{0}, h, 0);
  EXPECT_EQ(r.verdict, Verdict::linearizable);
  EXPECT_TRUE(r.order.empty());
}

TEST(Check, RefusesACallThatReturnsBeforeItIsInvoked) {
  std::vector<SmallHistory> h = {{SmallCall{write(1), 0, 10, 5}}};
  auto r = check(RegisterSpec{}, Reg{0}, h, kBudget);
  EXPECT_EQ(r.verdict, Verdict::usage_error);
  EXPECT_EQ(r.error, "history 0, call 0: returned at 5, before it was invoked at 10");
}

TEST(Check, RefusesAThreadWhoseCallsOverlap) {
  std::vector<SmallHistory> h = {{SmallCall{write(1), 0, 0, 10}, SmallCall{read(), 1, 5, 12}}};
  auto r = check(RegisterSpec{}, Reg{0}, h, kBudget);
  EXPECT_EQ(r.verdict, Verdict::usage_error);
  EXPECT_NE(r.error.find("history 0, call 1: invoked at 5, before the thread's previous call "
                         "returned at 10"),
            std::string::npos)
      << r.error;
}

struct ThrowingSpec {
  std::optional<std::string> postcondition(const Reg&, const Cmd& c, int) const {
    if (c.kind == 0) throw std::runtime_error("boom in postcondition");
    return std::nullopt;
  }
  Reg next_model(const Reg& m, const Cmd&) const { return m; }
};

TEST(Check, ReportsAThrowingSpecAsCrashed) {
  std::vector<SmallHistory> h = {{SmallCall{read(), 0, 0, 1}}};
  auto r = check(ThrowingSpec{}, Reg{0}, h, kBudget);
  EXPECT_EQ(r.verdict, Verdict::crashed);
  EXPECT_EQ(r.error, "the spec or model threw: boom in postcondition");
}

TEST(Check, MemoKeepsTheSearchSmallOnWideHistories) {
  // Four threads of six reads of 0 each, call i of every thread spanning
  // [10i, 10i+10] (so neighbouring levels overlap): a huge number of
  // interleavings, but at most 7^4 position states, and the memo must keep
  // the search to those.
  std::vector<SmallHistory> h(4);
  for (auto& t : h) {
    for (int i = 0; i < 6; ++i) t.push_back(SmallCall{read(), 0, 10 * i, 10 * i + 10});
  }
  h[3].back().response = 1;  // the last read of thread 3 is impossible
  auto r = check(RegisterSpec{}, Reg{0}, h, kBudget);
  ASSERT_EQ(r.verdict, Verdict::not_linearizable);
  EXPECT_LE(r.evaluations, 4U * 7 * 7 * 7 * 7);
  EXPECT_EQ(r.explanation.prefix.size(), 23U);
}

TEST(Check, ExplainReadsAsText) {
  std::vector<SmallHistory> h = {
      {SmallCall{write(1), 0, 0, 10}},
      {SmallCall{read(), 1, 2, 5}, SmallCall{read(), 0, 6, 12}},
  };
  auto r = check(RegisterSpec{}, Reg{0}, h, kBudget);
  auto describe = [&](CallRef c) {
    const auto& call = h[c.history][c.index];
    return call.command.kind == 0 ? "read -> " + std::to_string(call.response)
                                  : "write " + std::to_string(call.command.a);
  };
  const std::string text = explain(r, 3, describe, [](const std::string& v) { return v; });
  EXPECT_NE(text.find("not linearizable"), std::string::npos) << text;
  EXPECT_NE(text.find("placed 2 of 3 calls"), std::string::npos) << text;
  EXPECT_NE(text.find("thread 1 #1  read -> 0  violates: read 0, holds 1"), std::string::npos)
      << text;
}

// --- against the oracle -----------------------------------------------------

struct Tally {
  int linearizable = 0;
  int not_linearizable = 0;
};

template <class S, class M>
void agree_with_oracle(const S& spec, const M& initial, std::uint64_t seed, int cases,
                       Tally& tally) {
  Rng rng(seed);
  for (int n = 0; n < cases; ++n) {
    const int threads = 2 + rng.below(3);
    const bool perturb = rng.below(2) == 0;
    auto h = testing::generate(spec, initial, rng, threads, 6, 16, perturb);
    const auto truth = Oracle<S, M>(spec, h).run(initial);
    auto r = check(spec, initial, h, kBudget);
    SCOPED_TRACE("seed " + std::to_string(seed) + " case " + std::to_string(n));
    ASSERT_EQ(r.verdict, truth.linearizable ? Verdict::linearizable : Verdict::not_linearizable);
    if (truth.linearizable) {
      ++tally.linearizable;
      ASSERT_EQ(testing::validate_order(spec, initial, h, r.order, true), "");
      continue;
    }
    ++tally.not_linearizable;
    // The explanation is the deepest dead end: its prefix is valid and as
    // long as the longest prefix the oracle could place.
    const auto& e = r.explanation;
    ASSERT_EQ(testing::validate_order(spec, initial, h, e.prefix, false), "");
    ASSERT_EQ(e.prefix.size(), truth.longest_prefix);
    M model = initial;
    for (const CallRef c : e.prefix) model = spec.next_model(model, h[c.history][c.index].command);
    for (const auto& next : e.next) {
      const auto& call = h[next.call.history][next.call.index];
      switch (next.why) {
        case Blocked::violated:
          ASSERT_TRUE(next.violation.has_value());
          ASSERT_TRUE(spec.postcondition(model, call.command, call.response).has_value());
          break;
        case Blocked::overtaken:
          ASSERT_LT(h[next.overtaken_by.history][next.overtaken_by.index].returned_at,
                    call.invoked_at);
          break;
        case Blocked::explored:
          FAIL() << "the deepest dead end cannot lead to explored states";
      }
    }
  }
}

TEST(CheckOracle, AgreesOnRandomRegisterHistories) {
  Tally tally;
  agree_with_oracle(RegisterSpec{}, Reg{0}, 1, 2000, tally);
  EXPECT_GT(tally.linearizable, 300);
  EXPECT_GT(tally.not_linearizable, 300);
}

TEST(CheckOracle, AgreesOnRandomQueueHistories) {
  Tally tally;
  agree_with_oracle(QueueSpec{}, Queue{}, 2, 2000, tally);
  EXPECT_GT(tally.linearizable, 300);
  EXPECT_GT(tally.not_linearizable, 300);
}

TEST(CheckOracle, AgreesOnRandomSetHistories) {
  Tally tally;
  agree_with_oracle(SetSpec{}, Set{}, 3, 2000, tally);
  EXPECT_GT(tally.linearizable, 300);
  EXPECT_GT(tally.not_linearizable, 300);
}

TEST(CheckOracle, ASmallBudgetNeverGivesAWrongAnswer) {
  Rng rng(4);
  int undecided = 0;
  for (int n = 0; n < 500; ++n) {
    auto h = testing::generate(RegisterSpec{}, Reg{0}, rng, 3, 6, 14, rng.below(2) == 0);
    const auto truth = Oracle<RegisterSpec, Reg>(RegisterSpec{}, h).run(Reg{0});
    auto r = check(RegisterSpec{}, Reg{0}, h, 12);
    if (r.verdict == Verdict::undecided) {
      ++undecided;
      continue;
    }
    ASSERT_EQ(r.verdict, truth.linearizable ? Verdict::linearizable : Verdict::not_linearizable);
  }
  EXPECT_GT(undecided, 0);
}

}  // namespace
}  // namespace merilo::linearize
