// The GoogleTest glue fails the test with the report, and only then.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <merilo/statem/gtest.hpp>

#include "systems.hpp"

namespace sys = statem_systems;

TEST(StatemGtest, AFailingCheckFailsTheTestWithTheReport) {
  EXPECT_NONFATAL_FAILURE(merilo::testing::statem_check(sys::counter::Spec{}, {.seed = 1}),
                          "shrunk list (4 commands), failing at step 3");
  EXPECT_NONFATAL_FAILURE(merilo::testing::statem_check(sys::counter::Spec{}, {.seed = 1}),
                          "merilo::statem::check_run(spec, {.seed = 1");
}

TEST(StatemGtest, AUsageErrorFailsTheTest) {
  EXPECT_NONFATAL_FAILURE(merilo::testing::statem_check(sys::counter::Spec{}, {}),
                          "Config::seed is required");
}

TEST(StatemGtest, APassingCheckPassesAndReturnsItsResult) {
  auto r = merilo::testing::statem_check(sys::counter::Spec{.buggy = false},
                                         {.seed = 1, .test_count = 50});
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.runs, 50U);
}
