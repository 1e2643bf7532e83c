// counter_test.cpp — the parallel tester finds the lost update with its
// default settings, shrinks it to one increment per branch, and passes the
// fixed counter.
#include <gtest/gtest.h>

#include <counter/spec.hpp>
#include <merilo/parallel/gtest.hpp>
#include <merilo/parallel/parallel.hpp>

namespace {

namespace parallel = merilo::parallel;

TEST(CounterParallel, FixedCounterIsLinearizable) {
  merilo::testing::parallel_check(counter::Spec<counter::Bug::none>{}, {.seed = 1});
}

TEST(CounterParallel, FindsTheLostUpdateAndShrinksItToOneIncrementPerBranch) {
  auto r = parallel::check(counter::Spec<counter::Bug::lost_update>{}, {.seed = 1});
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(r.failure.has_value()) << "the lost update was not found";
  const auto& f = *r.failure;
  EXPECT_EQ(f.violation.tag, parallel::kNotLinearizableTag) << parallel::report(f);
  EXPECT_EQ(f.evidence, parallel::Evidence::raced);
  const parallel::Case<counter::Op> smallest{
      .prefix = {}, .branches = {{counter::Op::increment}, {counter::Op::increment}}};
  EXPECT_EQ(f.shrunk, smallest) << parallel::report(f);
  ASSERT_EQ(f.histories.size(), 2U);
  // Both increments answered the same value: the update one of them lost.
  EXPECT_EQ(f.histories[0][0].response, f.histories[1][0].response) << parallel::report(f);
}

}  // namespace
