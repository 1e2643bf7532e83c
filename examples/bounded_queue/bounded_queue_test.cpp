// bounded_queue_test.cpp — the controlled scheduler finds the unlocked
// size check at every seed with the default settings and shrinks it to two
// pushes that both succeed on a queue with room for one; the pin replays
// it; the queue that checks under its lock passes every schedule of up to
// two preemptions.
#include <cstddef>
#include <vector>

#include <gtest/gtest.h>

#include <bounded_queue/spec.hpp>
#include <common/controlled_check.hpp>
#include <merilo/parallel/parallel.hpp>

namespace {

namespace parallel = merilo::parallel;
using bounded_queue::Op;

TEST(BoundedQueueParallel, FixedQueuePassesEveryScheduleOfTwoPreemptions) {
  examples::expect_fixed_twin_passes(bounded_queue::Spec<bounded_queue::Bug::none>{});
}

TEST(BoundedQueueParallel, FindsTheUnlockedCheckAtEverySeedAndShrinksItToTwoPushesIntoOneSlot) {
  const std::size_t least = examples::expect_found_at_every_seed(
      bounded_queue::Spec<bounded_queue::Bug::unlocked_check>{}, parallel::kNotLinearizableTag,
      [](const auto& f) {
        // Three pushes, the values as drawn: one that leaves one slot free,
        // in the prefix or first in a branch, then one in each branch that
        // both read the size before either bumped it.
        std::vector<Op> pushes = f.shrunk.prefix;
        for (const auto& b : f.shrunk.branches) pushes.insert(pushes.end(), b.begin(), b.end());
        if (pushes.size() != 3 || f.shrunk.branches.size() != 2) {
          ADD_FAILURE() << parallel::report(f);
          return false;
        }
        for (const Op& op : pushes) EXPECT_TRUE(op.push) << parallel::report(f);
        const Op a = pushes[0];
        const Op b = pushes[1];
        const Op c = pushes[2];
        const parallel::Case<Op> forms[] = {
            {.prefix = {a}, .branches = {{b}, {c}}},
            {.prefix = {}, .branches = {{a, b}, {c}}},
            {.prefix = {}, .branches = {{a}, {b, c}}},
        };
        const bool exact =
            f.shrunk == forms[0] || f.shrunk == forms[1] || f.shrunk == forms[2];
        EXPECT_TRUE(exact) << parallel::report(f);
        // One preemption: a push is switched out between its size check and
        // its lock, and the other push fills the last slot.
        EXPECT_EQ(f.scheduling.preemptions, 1U) << parallel::report(f);
        for (const auto& h : f.histories) {
          for (const auto& call : h) EXPECT_EQ(call.response, 1) << parallel::report(f);
        }
        return exact;
      });
  EXPECT_EQ(least, examples::kSeeds);
}

}  // namespace
