// stack_test.cpp — the controlled scheduler finds the split pop at every
// seed with the default settings and shrinks it to one push and a pop in
// each branch, both pops returning the pushed item; the pin replays it; the
// fixed stack passes every schedule of up to two preemptions.
#include <gtest/gtest.h>

#include <common/controlled_check.hpp>
#include <merilo/parallel/parallel.hpp>
#include <stack/spec.hpp>

namespace {

namespace parallel = merilo::parallel;

TEST(StackParallel, FixedStackPassesEveryScheduleOfTwoPreemptions) {
  // 30 cases, not the default 100: every schedule of up to two preemptions
  // of 100 cases took about 28 s on a loaded two-core machine.
  examples::expect_fixed_twin_passes(stack::Spec<stack::Bug::none>{}, 30);
}

TEST(StackParallel, FindsTheSplitPopAtEverySeedAndShrinksItToAnItemPoppedTwice) {
  examples::expect_found_at_every_seed(
      stack::Spec<stack::Bug::split_pop>{}, parallel::kNotLinearizableTag, [](const auto& f) {
        ASSERT_EQ(f.shrunk.prefix.size(), 1U) << parallel::report(f);
        const stack::Op push = f.shrunk.prefix[0];
        const stack::Op pop{};
        const parallel::Case<stack::Op> least{.prefix = {push}, .branches = {{pop}, {pop}}};
        EXPECT_EQ(f.shrunk, least) << parallel::report(f);
        // One preemption: the first pop is switched out between its two
        // lock sections, the second pops the same item.
        EXPECT_EQ(f.scheduling.preemptions, 1U) << parallel::report(f);
        ASSERT_EQ(f.histories.size(), 2U);
        EXPECT_EQ(f.histories[0][0].response, push.value) << parallel::report(f);
        EXPECT_EQ(f.histories[1][0].response, push.value) << parallel::report(f);
      });
}

}  // namespace
