// stack_test.cpp — the parallel tester finds the split pop with its
// default settings and shrinks it to at most five calls in which two pops
// return the same item; the fixed stack passes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <merilo/parallel/gtest.hpp>
#include <merilo/parallel/parallel.hpp>
#include <stack/spec.hpp>

namespace {

namespace parallel = merilo::parallel;

TEST(StackParallel, FixedStackIsLinearizable) {
  merilo::testing::parallel_check(stack::Spec<stack::Bug::none>{}, {.seed = 1});
}

TEST(StackParallel, FindsTheSplitPopAndShrinksItToAnItemPoppedTwice) {
  const auto r = parallel::check(stack::Spec<stack::Bug::split_pop>{}, {.seed = 1});
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(r.failure.has_value()) << "the split pop was not found";
  const auto& f = *r.failure;
  EXPECT_EQ(f.violation.tag, parallel::kNotLinearizableTag) << parallel::report(f);
  // Observed, two local minima: one push in the prefix and a pop in each
  // branch (both pops return the pushed item), or two pushes in the prefix,
  // a push racing in one branch and two pops in the other (the push lands
  // inside the first pop's window, that pop removes the new item instead of
  // the one it returned, and the second pop returns the same item again).
  // Either way at most five calls, and two pops returned one item.
  ASSERT_EQ(f.shrunk.branches.size(), 2U) << parallel::report(f);
  std::size_t calls = f.shrunk.prefix.size();
  for (const auto& b : f.shrunk.branches) calls += b.size();
  EXPECT_LE(calls, 5U) << parallel::report(f);
  EXPECT_LE(f.shrunk.prefix.size(), 2U) << parallel::report(f);
  std::vector<std::int32_t> popped;
  for (const auto& h : f.histories) {
    for (const auto& call : h) {
      if (!call.command.push && call.response) popped.push_back(*call.response);
    }
  }
  std::sort(popped.begin(), popped.end());
  EXPECT_NE(std::adjacent_find(popped.begin(), popped.end()), popped.end())
      << "no item was popped twice\n"
      << parallel::report(f);
}

}  // namespace
