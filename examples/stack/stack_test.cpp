// stack_test.cpp — the parallel tester finds the split pop with its
// default settings and shrinks it to one push and two racing pops; the
// fixed stack passes.
#include <gtest/gtest.h>

#include <merilo/parallel/gtest.hpp>
#include <merilo/parallel/parallel.hpp>
#include <stack/spec.hpp>

namespace {

namespace parallel = merilo::parallel;

TEST(StackParallel, FixedStackIsLinearizable) {
  merilo::testing::parallel_check(stack::Spec<stack::Bug::none>{}, {.seed = 1});
}

TEST(StackParallel, FindsTheSplitPopAndShrinksItToTwoRacingPops) {
  const auto r = parallel::check(stack::Spec<stack::Bug::split_pop>{}, {.seed = 1});
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(r.failure.has_value()) << "the split pop was not found";
  const auto& f = *r.failure;
  EXPECT_EQ(f.violation.tag, parallel::kNotLinearizableTag) << parallel::report(f);
  ASSERT_EQ(f.shrunk.branches.size(), 2U) << parallel::report(f);
  for (const auto& b : f.shrunk.branches) {
    ASSERT_EQ(b.size(), 1U) << parallel::report(f);
    EXPECT_FALSE(b[0].push) << parallel::report(f);
  }
  // Observed: one push in the prefix, and both pops returned its item.
  ASSERT_EQ(f.shrunk.prefix.size(), 1U) << parallel::report(f);
  EXPECT_TRUE(f.shrunk.prefix[0].push);
  EXPECT_EQ(f.histories[0][0].response, f.shrunk.prefix[0].value) << parallel::report(f);
  EXPECT_EQ(f.histories[1][0].response, f.shrunk.prefix[0].value) << parallel::report(f);
}

}  // namespace
