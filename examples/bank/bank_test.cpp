// bank_test.cpp — the parallel tester finds the check-then-debit withdraw
// with its default settings and shrinks it to two withdraws the balance
// covers one at a time; the fixed account passes.
#include <algorithm>
#include <cstdint>

#include <gtest/gtest.h>

#include <bank/spec.hpp>
#include <merilo/parallel/gtest.hpp>
#include <merilo/parallel/parallel.hpp>

namespace {

namespace parallel = merilo::parallel;

TEST(BankParallel, FixedAccountIsLinearizableAndNeverOverdrawn) {
  merilo::testing::parallel_check(bank::Spec<bank::Bug::none>{}, {.seed = 1});
}

TEST(BankParallel, FindsTheCheckThenDebitWithdrawAndShrinksIt) {
  const auto r = parallel::check(bank::Spec<bank::Bug::check_then_debit>{}, {.seed = 1});
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(r.failure.has_value()) << "the overdraft was not found";
  const auto& f = *r.failure;
  EXPECT_EQ(f.violation.tag, parallel::kNotLinearizableTag) << parallel::report(f);
  // Observed: one withdraw in each branch after a prefix of at most three
  // calls (the shrinker deletes and moves calls but does not change
  // amounts, so a prefix like "deposit 3, withdraw 2, deposit 2" can be a
  // local minimum).
  EXPECT_LE(f.shrunk.prefix.size(), 3U) << parallel::report(f);
  ASSERT_EQ(f.shrunk.branches.size(), 2U) << parallel::report(f);
  for (const auto& b : f.shrunk.branches) {
    ASSERT_EQ(b.size(), 1U) << parallel::report(f);
    EXPECT_EQ(b[0].kind, bank::Kind::withdraw);
  }
  // The balance after the prefix covers each withdraw alone but not both,
  // and both succeeded.
  const bank::Spec<bank::Bug::check_then_debit> spec;
  bank::Model m = spec.initial();
  for (const bank::Op& op : f.shrunk.prefix) m = spec.next_model(m, op);
  const std::int64_t first = f.shrunk.branches[0][0].amount;
  const std::int64_t second = f.shrunk.branches[1][0].amount;
  EXPECT_GE(m.balance, std::max(first, second)) << parallel::report(f);
  EXPECT_LT(m.balance, first + second) << parallel::report(f);
  EXPECT_EQ(f.histories[0][0].response, 1);
  EXPECT_EQ(f.histories[1][0].response, 1);
}

}  // namespace
