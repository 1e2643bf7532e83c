// The pinned test the clang/libFuzzer build of counter_lost_update_fuzz
// printed (make fuzz-seeded, -seed=1), pasted as it was: in this build it
// replays the same failure, and the atomic counter passes the same bytes.
#include <gtest/gtest.h>

#include <counter/spec.hpp>
#include <merilo/parallel/fuzz.hpp>

namespace {

constexpr const char* kPrinted =
    "pf1:1:1:2:6:4:rc11:0101010101fffaffffffffffffffffffff000bffffffffffff01:30f56d68eae8b38a";

TEST(Pinned, CounterLostUpdate_parallel_not_linearizable) {
  const auto r =
      merilo::parallel::replay_input(counter::Spec<counter::Bug::lost_update>{}, kPrinted);
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_FALSE(r.passed());
  EXPECT_EQ(r.violation->tag, merilo::parallel::kNotLinearizableTag);
  EXPECT_EQ(r.run, 1U);
  EXPECT_EQ(r.token, kPrinted);  // the same failure prints the same pin
  ASSERT_EQ(r.histories.size(), 2U);
  EXPECT_EQ(r.histories[0].size(), 3U);  // increment, increment, get
  EXPECT_EQ(r.histories[1].size(), 4U);  // increment, get, increment, get
}

TEST(Pinned, TheAtomicCounterPassesTheLostUpdatesSchedule) {
  const auto r = merilo::parallel::replay_input(counter::Spec<>{}, kPrinted);
  EXPECT_TRUE(r.passed()) << r.report();
}

}  // namespace
