// gtest_test.cpp — parallel_check fails the test at the caller's line with
// the report, and stays quiet when the system is correct.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <merilo/parallel/gtest.hpp>

#include "probe.hpp"

namespace {

TEST(ParallelGtest, ACorrectSystemAddsNoFailure) {
  const auto r = merilo::testing::parallel_check(probe::Spec{}, {.seed = 3, .test_count = 10});
  EXPECT_TRUE(r.ok());
}

TEST(ParallelGtest, AFailureIsReportedAtTheCallersLineWithTheReport) {
  probe::Spec spec;
  spec.hooks->in_finish = [] {
    return merilo::statem::Violation{"probe.audit", "books do not balance"};
  };
  ::testing::TestPartResultArray failures;
  int line = 0;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    line = __LINE__ + 1;
    merilo::testing::parallel_check(spec, {.seed = 3, .max_shrinks = 5});
  }
  ASSERT_EQ(failures.size(), 1);
  const ::testing::TestPartResult& f = failures.GetTestPartResult(0);
  EXPECT_EQ(f.line_number(), line);
  EXPECT_NE(std::string(f.file_name()).find("gtest_test.cpp"), std::string::npos);
  const std::string message = f.message();
  EXPECT_NE(message.find("probe.audit"), std::string::npos);
  EXPECT_NE(message.find("merilo::parallel::check_run(spec, {.seed = 3"), std::string::npos);
}

TEST(ParallelGtest, AUsageErrorIsReported) {
  EXPECT_NONFATAL_FAILURE(merilo::testing::parallel_check(probe::Spec{}, {}),
                          "CheckOptions::seed is required");
}

}  // namespace
