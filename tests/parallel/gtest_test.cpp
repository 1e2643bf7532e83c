// gtest_test.cpp — parallel_check fails the test at the caller's line with
// the report, and stays quiet when the system is correct.
#include <string>
#include <utility>

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <merilo/gtest.hpp>

#include "controlled_systems.hpp"
#include "probe.hpp"

namespace {

/// The racy counter as its default: `RacyByDefault{}` rebuilds the bug.
struct RacyByDefault : controlled::CounterSpec {
  RacyByDefault() { racy = true; }
};

/// The message `parallel_check(args...)` fails the current test with ("" if none).
template <class... Args>
std::string glue_message(Args&&... args) {
  ::testing::TestPartResultArray failures;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    merilo::testing::parallel_check(std::forward<Args>(args)...);
  }
  if (failures.size() != 1) return {};
  return failures.GetTestPartResult(0).message();
}

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

TEST(ParallelGtest, ASpecConfiguredByAMemberIsNotPinnedAsTheDefaultOne) {
  // docs/parallel.md's own case: the default-built spec is the fixed one.
  const std::string message = glue_message(controlled::CounterSpec{.racy = true},
                                           merilo::parallel::CheckOptions{.seed = 5});
  ASSERT_FALSE(message.empty());
  EXPECT_EQ(message.find("controlled::CounterSpec{},"), std::string::npos) << message;
  EXPECT_NE(message.find("No pinned test is printed: `controlled::CounterSpec{}` does not fail "
                         "this pin (it passes)"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("merilo::testing::parallel_check(MERILO_EXPR(YourSpec{...}), config);"),
            std::string::npos)
      << message;
}

TEST(ParallelGtest, ThePinnedTestBuildsTheSpecWithTheCallersExpression) {
  const std::string message = glue_message(MERILO_EXPR(controlled::CounterSpec{.racy = true}),
                                           merilo::parallel::CheckOptions{.seed = 5});
  EXPECT_NE(message.find("TEST(Pinned, ThePinnedTestBuildsTheSpecWithTheCallersExpression_parallel_"
                         "not_linearizable) {\n"
                         "  merilo::testing::expect_parallel_replay_ok(\n"
                         "      controlled::CounterSpec{.racy = true},\n"
                         "      \"p2:5:"),
            std::string::npos)
      << message;
}

TEST(ParallelGtest, ADefaultBuiltSpecThatFailsIsPinnedWithoutTheAnonymousNamespace) {
  const std::string message =
      glue_message(RacyByDefault{}, merilo::parallel::CheckOptions{.seed = 5});
  EXPECT_NE(message.find("  merilo::testing::expect_parallel_replay_ok(\n      RacyByDefault{},\n"),
            std::string::npos)
      << message;
  EXPECT_EQ(message.find("anonymous"), std::string::npos) << message;
}

TEST(ParallelGtest, ASpecLocalToAFunctionIsNotPinnedAndTheMessageSaysWhy) {
  struct Local : controlled::CounterSpec {
    Local() { racy = true; }
  };
  const std::string message = glue_message(Local{}, merilo::parallel::CheckOptions{.seed = 5});
  ASSERT_FALSE(message.empty());
  EXPECT_EQ(message.find("expect_parallel_replay_ok("), std::string::npos) << message;
  EXPECT_NE(message.find("is local to a function"), std::string::npos) << message;
}

TEST(ParallelGtest, APastedPinnedTestFailsWhileTheBugIsThere) {
  // As ThePinnedTestBuildsTheSpecWithTheCallersExpression prints it, token included.
  const auto r = merilo::parallel::check(controlled::CounterSpec{.racy = true}, {.seed = 5});
  ASSERT_TRUE(r.failure.has_value());
  const std::string token = merilo::parallel::pin_token(*r.failure);
  EXPECT_NONFATAL_FAILURE(
      merilo::testing::expect_parallel_replay_ok(controlled::CounterSpec{.racy = true}, token),
      "parallel.not_linearizable");
  merilo::testing::expect_parallel_replay_ok(controlled::CounterSpec{.racy = false}, token);
}

/// A parameterized test: GoogleTest names its instances "Name/0".
class ParallelGtestParam : public ::testing::TestWithParam<int> {};

TEST_P(ParallelGtestParam, PinsUnderANameThatIsAnIdentifier) {
  const std::string message =
      glue_message(RacyByDefault{}, merilo::parallel::CheckOptions{.seed = 5});
  EXPECT_NE(
      message.find("TEST(Pinned, PinsUnderANameThatIsAnIdentifier_0_parallel_not_linearizable) {"),
      std::string::npos)
      << message;
}

INSTANTIATE_TEST_SUITE_P(Each, ParallelGtestParam, ::testing::Values(0));

}  // namespace
