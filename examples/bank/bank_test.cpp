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
  const std::size_t least = examples::expect_found_at_every_seed(
      bank::Spec<bank::Bug::check_then_debit>{}, parallel::kNotLinearizableTag, [](const auto& f) {
        // Exactly one withdraw in each branch, after a prefix that leaves a
        // balance covering each alone but not both. The prefix is not one
        // fixed case: the shrinker deletes and moves calls but keeps
        // amounts, and a prefix such as "deposit 3, withdraw 2" is where it
        // stops when no single deletion leaves the right balance (seen at
        // seeds 1..20: one to three calls; one deposit at 16 seeds).
        EXPECT_LE(f.shrunk.prefix.size(), 3U) << parallel::report(f);
        if (f.shrunk.branches.size() != 2 || f.shrunk.branches[0].size() != 1 ||
            f.shrunk.branches[1].size() != 1 || f.histories.size() != 2) {
          ADD_FAILURE() << parallel::report(f);
          return false;
        }
        const bank::Op first = f.shrunk.branches[0][0];
        const bank::Op second = f.shrunk.branches[1][0];
        EXPECT_EQ(first.kind, bank::Kind::withdraw) << parallel::report(f);
        EXPECT_EQ(second.kind, bank::Kind::withdraw) << parallel::report(f);
        const bank::Spec<bank::Bug::check_then_debit> spec;
        bank::Model m = spec.initial();
        for (const bank::Op& op : f.shrunk.prefix) m = spec.next_model(m, op);
        EXPECT_GE(m.balance, std::max(first.amount, second.amount)) << parallel::report(f);
        EXPECT_LT(m.balance, first.amount + second.amount) << parallel::report(f);
        EXPECT_EQ(f.scheduling.preemptions, 1U) << parallel::report(f);
        EXPECT_EQ(f.histories[0][0].response, 1);
        EXPECT_EQ(f.histories[1][0].response, 1);
        // The least case: one deposit, then the two withdraws.
        return f.shrunk.prefix.size() == 1 && f.shrunk.prefix[0].kind == bank::Kind::deposit;
      });
  // Seen: the least case at 16 of the 20 seeds.
  EXPECT_GE(least, examples::least_floor(16));
}

}  // namespace
