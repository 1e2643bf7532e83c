// bounded_queue_test.cpp — the controlled scheduler finds the unlocked
// size check at every seed with the default settings and shrinks it to two
// pushes that both succeed on a queue with room for one (after one push, or
// at some seeds after "push, push, pop"); the pin replays it; the queue that checks under its lock
// passes every schedule of up to two preemptions.
#include <cstddef>

#include <gtest/gtest.h>

#include <bounded_queue/spec.hpp>
#include <common/controlled_check.hpp>
#include <merilo/parallel/parallel.hpp>

namespace {

namespace parallel = merilo::parallel;
using bounded_queue::Op;

TEST(BoundedQueueParallel, FixedQueuePassesEveryScheduleOfTwoPreemptions) {
  // 15 cases, not the default 100: every schedule of up to two preemptions
  // of 100 cases took about 60 s on a loaded two-core machine.
  examples::expect_fixed_twin_passes(bounded_queue::Spec<bounded_queue::Bug::none>{}, 15);
}

TEST(BoundedQueueParallel, FindsTheUnlockedCheckAtEverySeedAndShrinksItToTwoPushesIntoOneSlot) {
  const std::size_t least = examples::expect_found_at_every_seed(
      bounded_queue::Spec<bounded_queue::Bug::unlocked_check>{}, parallel::kNotLinearizableTag,
      [](const auto& f) {
        // A push in each branch, after a prefix that leaves one slot free,
        // the values as drawn. The least case has one push in the prefix
        // (11 of the 20 seeds); at the others the shrinker, which deletes
        // calls one at a time, stops at the prefix "push a, push b, pop":
        // without the pop the queue is full, without a push it is empty.
        const Op pop{};
        if (f.shrunk.prefix.empty() || f.shrunk.branches.size() != 2 ||
            f.shrunk.branches[0].size() != 1 || f.shrunk.branches[1].size() != 1) {
          ADD_FAILURE() << parallel::report(f);
          return false;
        }
        const Op a = f.shrunk.prefix[0];
        const Op b = f.shrunk.prefix.size() > 1 ? f.shrunk.prefix[1] : pop;
        const Op c = f.shrunk.branches[0][0];
        const Op d = f.shrunk.branches[1][0];
        const parallel::Case<Op> least_case{.prefix = {a}, .branches = {{c}, {d}}};
        const parallel::Case<Op> neighbour{.prefix = {a, b, pop}, .branches = {{c}, {d}}};
        EXPECT_TRUE(f.shrunk == least_case || f.shrunk == neighbour) << parallel::report(f);
        for (const Op op : {a, c, d}) EXPECT_TRUE(op.push) << parallel::report(f);
        // One preemption: a push is switched out between its size check and
        // its lock, and the other push fills the last slot.
        EXPECT_EQ(f.scheduling.preemptions, 1U) << parallel::report(f);
        for (const auto& h : f.histories) {
          for (const auto& call : h) EXPECT_EQ(call.response, 1) << parallel::report(f);
        }
        return f.shrunk == least_case;
      });
  EXPECT_GE(least, examples::least_floor(11));
}

}  // namespace
