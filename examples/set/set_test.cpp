// set_test.cpp — the controlled scheduler finds the double insert at every
// seed with the default settings and shrinks it to one insert of the same
// value in each branch, both answering "inserted"; the pin replays it; the
// fixed set passes every schedule of up to two preemptions.
#include <cstddef>

#include <gtest/gtest.h>

#include <common/controlled_check.hpp>
#include <merilo/parallel/parallel.hpp>
#include <set/spec.hpp>

namespace {

namespace parallel = merilo::parallel;

TEST(SetParallel, FixedSetPassesEveryScheduleOfTwoPreemptions) {
  // 40 cases, not the default 100: every schedule of up to two preemptions
  // of 100 cases took about 25 s on a loaded two-core machine.
  examples::expect_fixed_twin_passes(set::Spec<set::Bug::none>{}, 40);
}

TEST(SetParallel, FindsTheDoubleInsertAtEverySeedAndShrinksItToTwoInsertsOfOneValue) {
  const std::size_t least = examples::expect_found_at_every_seed(
      set::Spec<set::Bug::double_insert>{}, parallel::kNotLinearizableTag, [](const auto& f) {
        if (f.shrunk.branches.size() != 2 || f.shrunk.branches[0].empty() ||
            f.histories.size() != 2) {
          ADD_FAILURE() << parallel::report(f);
          return false;
        }
        const set::Op insert = f.shrunk.branches[0][0];  // the value is the drawn one
        EXPECT_EQ(insert.kind, set::Kind::insert) << parallel::report(f);
        const parallel::Case<set::Op> smallest{.prefix = {}, .branches = {{insert}, {insert}}};
        EXPECT_EQ(f.shrunk, smallest) << parallel::report(f);
        // One preemption: an insert is switched out between its check and
        // its append, and the other runs in the window.
        EXPECT_EQ(f.scheduling.preemptions, 1U) << parallel::report(f);
        EXPECT_EQ(f.histories[0][0].response, 1) << parallel::report(f);
        EXPECT_EQ(f.histories[1][0].response, 1) << parallel::report(f);
        return f.shrunk == smallest;
      });
  EXPECT_EQ(least, examples::kSeeds);
}

}  // namespace
