// The GoogleTest glue as a user includes it: one header, the calls of
// every checker in merilo::testing. Explores the two counters (9 worlds)
// and replays a trace, failing the test if either finds a broken rule.
#include <merilo/gtest.hpp>

#include "counters.hpp"

TEST(Consumer, TheGlueExploresEveryWorld) {
  Counters sys;
  const merilo::explore::ExploreResult r =
      merilo::testing::explore(sys, {.max_states = 100, .require_complete = true});
  EXPECT_EQ(r.states, 9U);
  merilo::testing::expect_replay_ok(sys, {0, 1, 1});
}
