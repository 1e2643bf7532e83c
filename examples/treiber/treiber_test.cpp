// treiber_test.cpp — the controlled scheduler finds the ABA problem of the
// untagged Treiber stack at every seed with the default settings and
// shrinks it to a pop overtaken by a pop and a push that reuses its node;
// the pin replays it; the tagged stack passes every schedule of up to two
// preemptions.
#include <cstddef>

#include <gtest/gtest.h>

#include <common/controlled_check.hpp>
#include <common/stack_aba.hpp>
#include <merilo/parallel/parallel.hpp>
#include <treiber/spec.hpp>

namespace {

namespace parallel = merilo::parallel;

TEST(TreiberParallel, TaggedStackPassesEveryScheduleOfTwoPreemptions) {
  // 25 cases, not the default 100: every schedule of up to two preemptions
  // of 100 cases took about 37 s on a loaded two-core machine.
  examples::expect_fixed_twin_passes(treiber::Spec<treiber::Bug::none>{}, 25);
}

TEST(TreiberParallel, FindsTheAbaAtEverySeedAndShrinksItToAPopOvertakenByPopAndPush) {
  const std::size_t least = examples::expect_found_at_every_seed(
      treiber::Spec<treiber::Bug::aba>{}, parallel::kNotLinearizableTag, [](const auto& f) {
        // One push a in the prefix; one branch pops, the other pops a and
        // pushes b into the node a was in (values as drawn, b != a); the
        // first pop's swap succeeds on the reused node and returns a again.
        // At every seed: at seed 12 the prefix "push a, push a, pop" goes
        // down to one push by deleting a neighbouring pair, and at seed 17
        // "pop | pop, push b, push c, pop" goes down to "pop | pop, push b"
        // only by deleting "push c, pop" together (each single deletion
        // fails only with two preemptions, and a candidate's search stops
        // at the failure's one).
        const bool exact = examples::is_least_aba_case(f.shrunk);
        EXPECT_TRUE(exact) << parallel::report(f);
        // One preemption: the lone pop is switched out between reading the
        // top and its compare-and-swap; the other branch then runs to its
        // end, and switching back is free.
        EXPECT_EQ(f.scheduling.preemptions, 1U) << parallel::report(f);
        return exact;
      });
  EXPECT_EQ(least, examples::kSeeds);
}

}  // namespace
