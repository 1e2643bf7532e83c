// counter_test.cpp — the controlled scheduler finds the lost update at
// every seed with the default settings and shrinks it to one increment per
// branch; the pin replays it; the fixed counter passes every schedule of up
// to two preemptions.
#include <cstddef>

#include <gtest/gtest.h>

#include <common/controlled_check.hpp>
#include <counter/spec.hpp>
#include <merilo/parallel/parallel.hpp>

namespace {

namespace parallel = merilo::parallel;

TEST(CounterParallel, FixedCounterPassesEveryScheduleOfTwoPreemptions) {
  examples::expect_fixed_twin_passes(counter::Spec<counter::Bug::none>{});
}

TEST(CounterParallel, FindsTheLostUpdateAtEverySeedAndShrinksItToOneIncrementPerBranch) {
  const std::size_t least = examples::expect_found_at_every_seed(
      counter::Spec<counter::Bug::lost_update>{}, parallel::kNotLinearizableTag, [](const auto& f) {
        const parallel::Case<counter::Op> smallest{
            .prefix = {}, .branches = {{counter::Op::increment}, {counter::Op::increment}}};
        EXPECT_EQ(f.shrunk, smallest) << parallel::report(f);
        EXPECT_EQ(f.evidence, parallel::Evidence::raced);
        EXPECT_EQ(f.scheduling.preemptions, 1U) << parallel::report(f);
        if (f.histories.size() != 2) {
          ADD_FAILURE() << parallel::report(f);
          return false;
        }
        // Both increments answered the same value: the update one of them lost.
        EXPECT_EQ(f.histories[0][0].response, f.histories[1][0].response) << parallel::report(f);
        return f.shrunk == smallest;
      });
  EXPECT_EQ(least, examples::kSeeds);
}

}  // namespace
