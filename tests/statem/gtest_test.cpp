// The GoogleTest glue fails the test with the report, and only then, at the
// caller's file and line.
#include <string>

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <merilo/gtest.hpp>

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
                          "CheckOptions::seed is required");
}

TEST(StatemGtest, AFailureIsReportedAtTheCallersFileAndLine) {
  ::testing::TestPartResultArray results;
  int line = 0;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &results);
    // clang-format off
    line = __LINE__; merilo::testing::statem_check(sys::counter::Spec{}, {.seed = 1});
    // clang-format on
  }
  ASSERT_EQ(results.size(), 1);
  const ::testing::TestPartResult& failure = results.GetTestPartResult(0);
  EXPECT_EQ(std::string(failure.file_name()), std::string(__FILE__));
  EXPECT_EQ(failure.line_number(), line);
}

TEST(StatemGtest, AnUnhealthyCheckFailsTheTest) {
  struct Refusing : sys::counter::Spec {
    merilo::statem::Admission precondition(const int& /*m*/, const sys::counter::Cmd& /*c*/) const {
      return merilo::statem::Admission::reject;
    }
  };
  EXPECT_NONFATAL_FAILURE(merilo::testing::statem_check(Refusing{}, {.seed = 1}),
                          "the check did not really test");
}

TEST(StatemGtest, APassingCheckPassesAndReturnsItsResult) {
  auto r = merilo::testing::statem_check(sys::counter::Spec{.buggy = false},
                                         {.seed = 1, .test_count = 50});
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.runs, 50U);
}
