// trace_test.cpp — replay, format and the paste-ready replay test.
#include <merilo/explore/replay.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "fixtures.hpp"

namespace {

namespace ex = merilo::explore;
using ex::Trace;
using ex::ViolationKind;
constexpr ex::Kind kRight = fixtures::Grid::kRight;
constexpr ex::Kind kUp = fixtures::Grid::kUp;

TEST(Replay, PassesATraceThatBreaksNoRule) {
  fixtures::Grid sys;
  const ex::Replayed r = ex::replay(sys, {0, 1, 1});
  EXPECT_TRUE(r.ok()) << r.summary();
  EXPECT_EQ(r.steps, 3u);
}

TEST(Replay, FailsWhileTheBugIsThere) {
  fixtures::Grid sys;
  const Trace to_the_corner{kRight, kRight, kUp};
  const ex::Replayed r = ex::replay(sys, to_the_corner);
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(r.error.empty());
  EXPECT_EQ(r.violation.kind, ViolationKind::invariant);
  EXPECT_EQ(r.violation.trace, to_the_corner);
}

TEST(Replay, FailsWhenAKindIsNotEnabled) {
  fixtures::Grid sys;
  const ex::Replayed r = ex::replay(sys, {1, 1, 1, 1});
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.error,
            "the trace does not fit: step 4 takes kind 1 (up), which is not enabled there");
  EXPECT_EQ(r.steps, 3u);
}

TEST(Replay, FailsWhenAKindIsOutOfRange) {
  fixtures::Grid sys;
  const ex::Replayed r = ex::replay(sys, {0, 7});
  EXPECT_EQ(r.error, "the trace does not fit: step 2 takes kind 7 but the system has 2 kinds");
}

TEST(Replay, ReportsADeadlockAtTheEndOfTheTrace) {
  fixtures::Stuck sys;
  const ex::Replayed r = ex::replay(sys, {0, 0});
  EXPECT_EQ(r.violation.kind, ViolationKind::deadlock);
  EXPECT_TRUE(ex::replay(sys, {0}).ok());
}

TEST(Replay, ReportsApplyErrorsAndCrashes) {
  fixtures::Failing failing(1, false);
  EXPECT_EQ(ex::replay(failing, {0, 1}).violation.kind, ViolationKind::apply_error);
  fixtures::Throwing throwing;
  const Trace then_throw{fixtures::Throwing::kOk, fixtures::Throwing::kThrow};
  const ex::Replayed r = ex::replay(throwing, then_throw);
  EXPECT_EQ(r.violation.kind, ViolationKind::crash);
  EXPECT_EQ(r.violation.trace, then_throw);
  EXPECT_NE(r.violation.detail.find("disk on fire"), std::string::npos);
}

TEST(Replay, DetectsNondeterminismByFollowingTheTraceTwice) {
  fixtures::Clocked sys;
  const ex::Replayed r = ex::replay(sys, {0});
  EXPECT_EQ(r.violation.kind, ViolationKind::nondeterminism);
}

TEST(Format, PrintsOneAlignedRowPerStepAndTheViolation) {
  fixtures::Grid sys;
  EXPECT_EQ(ex::format(sys, {0, 0, 1}),
            "#1 right | x1 y0\n"
            "#2 right | x2 y0\n"
            "#3 up    | x2 y1\n"
            "VIOLATION invariant \"not at (2, 1)\" at step 3: reached (2, 1)\n");
}

TEST(Format, PadsStepNumbersAndSaysWhenTheTraceIsClean) {
  fixtures::Counters<2, 9> sys;
  const std::string text = ex::format(sys, {0, 0, 0, 0, 0, 0, 0, 0, 0, 1});
  EXPECT_NE(text.find("#01 inc c0 | open open\n"), std::string::npos) << text;
  EXPECT_NE(text.find("#09 inc c0 | full open\n"), std::string::npos) << text;
  EXPECT_NE(text.find("#10 inc c1 | full open\nOK: 10 steps, no rule broken\n"), std::string::npos)
      << text;
}

TEST(Format, SaysWhereATraceStopsFittingAndWhatToDoAboutIt) {
  fixtures::Grid sys;
  const std::string text = ex::format(sys, {1, 5});
  EXPECT_EQ(text.rfind("#1 up | x0 y1\n"
                       "TRACE DOES NOT FIT: the trace does not fit: step 2 takes kind 5 but the "
                       "system has 2 kinds\n",
                       0),
            0u)
      << text;
  // A newcomer whose fix disabled the step learns what the failure means.
  EXPECT_NE(text.find("What this means: the system changed so that this trace can no longer be "
                      "followed"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("delete or update this pinned test"), std::string::npos) << text;
}

TEST(ReplayTest, IsReadyToPaste) {
  EXPECT_EQ(ex::replay_test("Replay", "Grid_invariant", "fixtures::Grid{}", {0, 0, 1}),
            "TEST(Replay, Grid_invariant) {\n"
            "  auto sys = fixtures::Grid{};\n"
            "  merilo::testing::expect_replay_ok(sys, merilo::explore::Trace{0, 0, 1});\n"
            "}\n");
}

}  // namespace

namespace {

// The text of a file of merilo's source tree (MERILO_SOURCE_DIR).
std::string source_text(const std::string& relative) {
  std::ifstream in(std::string(MERILO_SOURCE_DIR) + "/" + relative);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A violation's one line is `summary()`, its only name (the old
// `describe()` is gone), and the header's overview sends readers there.
template <class V>
concept HasDescribe = requires(const V& v) {
  v.describe();
};

TEST(ViolationDocs, TheOverviewPointsAtSummaryTheOnlyNameOfTheOneLine) {
  static_assert(!HasDescribe<ex::Violation>);
  const std::string header = source_text("explore/include/merilo/explore/violation.hpp");
  const std::string overview = header.substr(0, header.find("#ifndef"));
  ASSERT_FALSE(overview.empty());
  EXPECT_NE(overview.find("One line for people comes from `summary()`"), std::string::npos)
      << overview;
  EXPECT_EQ(overview.find("describe()"), std::string::npos) << overview;
}

}  // namespace
