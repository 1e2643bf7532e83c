// bank_test.cpp — the controlled scheduler finds the check-then-debit
// withdraw at every seed with the default settings and shrinks it to two
// withdraws that the balance covers one at a time, both granted; the pin
// replays it; the fixed account passes every schedule of up to two
// preemptions.
#include <algorithm>
#include <cstdint>

#include <gtest/gtest.h>

#include <bank/spec.hpp>
#include <common/controlled_check.hpp>
#include <merilo/parallel/parallel.hpp>

namespace {

namespace parallel = merilo::parallel;

TEST(BankParallel, FixedAccountPassesEveryScheduleOfTwoPreemptions) {
  examples::expect_fixed_twin_passes(bank::Spec<bank::Bug::none>{});
}

TEST(BankParallel, FindsTheCheckThenDebitWithdrawAtEverySeedAndShrinksIt) {
  examples::expect_found_at_every_seed(
      bank::Spec<bank::Bug::check_then_debit>{}, parallel::kNotLinearizableTag,
      [](const auto& f) {
        // One deposit, then a withdraw in each branch: the shrinker deletes
        // and moves calls but keeps amounts, so the amounts are the drawn
        // ones; the deposit covers each withdraw alone but not both.
        ASSERT_EQ(f.shrunk.prefix.size(), 1U) << parallel::report(f);
        ASSERT_EQ(f.shrunk.branches.size(), 2U) << parallel::report(f);
        ASSERT_EQ(f.shrunk.branches[0].size(), 1U) << parallel::report(f);
        ASSERT_EQ(f.shrunk.branches[1].size(), 1U) << parallel::report(f);
        const bank::Op deposit = f.shrunk.prefix[0];
        const bank::Op first = f.shrunk.branches[0][0];
        const bank::Op second = f.shrunk.branches[1][0];
        EXPECT_EQ(deposit.kind, bank::Kind::deposit) << parallel::report(f);
        EXPECT_EQ(first.kind, bank::Kind::withdraw) << parallel::report(f);
        EXPECT_EQ(second.kind, bank::Kind::withdraw) << parallel::report(f);
        EXPECT_GE(deposit.amount, std::max(first.amount, second.amount)) << parallel::report(f);
        EXPECT_LT(deposit.amount, first.amount + second.amount) << parallel::report(f);
        EXPECT_EQ(f.scheduling.preemptions, 1U) << parallel::report(f);
        ASSERT_EQ(f.histories.size(), 2U);
        EXPECT_EQ(f.histories[0][0].response, 1);
        EXPECT_EQ(f.histories[1][0].response, 1);
      });
}

}  // namespace
