// pinned_test.cpp — the pinned test a violation prints rebuilds the system
// that broke the rule, and compiles as printed: `Type{}` only when a
// default-built system breaks the same rule, the caller's own expression
// through MERILO_EXPR, no anonymous-namespace qualifier, no local class,
// GoogleTest names made identifiers, long Catch2 names cut into literals no
// reporter's wrapping can break.
#include <array>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <merilo/explore/framework.hpp>
#include <merilo/gtest.hpp>

namespace {

namespace ex = merilo::explore;

/// One counter that goes up to 3; the invariant "below the limit" breaks
/// at step `limit` when the limit is 3 or less. Default-built (limit 10) it
/// never breaks.
class Limited {
 public:
  struct World {
    std::uint32_t n = 0;
  };
  Limited() = default;
  explicit Limited(std::uint32_t limit) : limit_(limit) {}
  void reset() { w_ = {}; }
  [[nodiscard]] std::size_t kinds() const { return 1; }
  [[nodiscard]] bool enabled(ex::Kind) const { return w_.n < 3; }
  ex::Status apply(ex::Kind) {
    ++w_.n;
    return {};
  }
  [[nodiscard]] const World& world() const { return w_; }
  [[nodiscard]] std::string tuple() const { return "n=" + std::to_string(w_.n); }
  [[nodiscard]] bool settled() const { return true; }
  [[nodiscard]] std::string describe(ex::Kind) const { return "up"; }
  [[nodiscard]] std::array<ex::Invariant<Limited>, 1> invariants() const {
    return {{{"below the limit", [](const Limited& s) { return s.w_.n < s.limit_; }}}};
  }

 private:
  std::uint32_t limit_ = 10;
  World w_{};
};

/// `Limited` whose default is broken: `LowLimit{}` rebuilds the bug.
struct LowLimit : Limited {
  LowLimit() : Limited(2) {}
};

const ex::ExploreOptions kOptions{.max_states = 100, .quiet = true};

template <class S>
std::string failure_of(S& sys, merilo::core::Framework framework, std::string_view test) {
  const ex::ExploreResult r = ex::explore(sys, kOptions);
  if (!r.violation.found()) return "no violation";
  return ex::explore_failure(sys, kOptions, r, framework, test);
}

TEST(PinnedTest, ASystemConfiguredByAConstructorArgumentIsNotPinnedAsTheDefaultOne) {
  Limited sys{2};
  const std::string message = failure_of(sys, merilo::core::Framework::googletest, "Finds");
  EXPECT_EQ(message.find("Limited{};"), std::string::npos) << message;
  EXPECT_NE(message.find("No pinned test is printed: `Limited{}` does not break the rule along "
                         "this trace"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("MERILO_EXPR(YourSystem{...})"), std::string::npos) << message;
}

TEST(PinnedTest, ADefaultBuiltSystemThatBreaksTheRuleIsPinnedWithoutTheAnonymousNamespace) {
  LowLimit sys;
  const std::string message = failure_of(sys, merilo::core::Framework::googletest, "Finds");
  EXPECT_NE(message.find("  auto sys = LowLimit{};\n"), std::string::npos) << message;
  EXPECT_EQ(message.find("anonymous"), std::string::npos) << message;
}

TEST(PinnedTest, TheCallersExpressionIsPinnedAsWritten) {
  ::testing::TestPartResultArray failures;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    merilo::testing::explore(MERILO_EXPR(Limited{2}), kOptions);
  }
  ASSERT_EQ(failures.size(), 1);
  const std::string message = failures.GetTestPartResult(0).message();
  EXPECT_NE(message.find("TEST(Replay, TheCallersExpressionIsPinnedAsWritten_invariant) {\n"
                         "  auto sys = Limited{2};\n"),
            std::string::npos)
      << message;
}

TEST(PinnedTest, AnAdapterLocalToAFunctionIsNotPinnedAndTheMessageSaysWhere) {
  struct Local : Limited {
    Local() : Limited(2) {}
  };
  Local sys;
  const std::string message = failure_of(sys, merilo::core::Framework::googletest, "Finds");
  EXPECT_EQ(message.find("auto sys ="), std::string::npos) << message;
  EXPECT_NE(message.find("is local to a function"), std::string::npos) << message;
  EXPECT_NE(message.find("declare the adapter at namespace scope"), std::string::npos) << message;
}

TEST(PinnedTest, AGoogleTestNameThatIsNoIdentifierIsMadeOne) {
  LowLimit sys;
  const std::string message = failure_of(sys, merilo::core::Framework::googletest, "Finds/0");
  EXPECT_NE(message.find("TEST(Replay, Finds_0_invariant) {"), std::string::npos) << message;
}

TEST(PinnedTest, ALongCatch2NameIsCutIntoShortLiteralsThatJoinBackToIt) {
  LowLimit sys;
  const std::string name =
      "a long test case name that goes on and on, \"quoted\", until any reporter wraps it";
  const std::string message = failure_of(sys, merilo::core::Framework::catch2, name);
  const std::size_t at = message.find("TEST_CASE(");
  ASSERT_NE(at, std::string::npos) << message;
  std::istringstream lines(message.substr(at));
  std::string joined;
  bool in_name = true;
  for (std::string line; in_name && std::getline(lines, line);) {
    EXPECT_LE(line.size(), 60U) << line;
    // Each line of the name is one literal: "..." after the indent.
    const std::size_t open = line.find('"');
    const std::size_t close = line.rfind('"');
    ASSERT_NE(open, close) << line;
    joined += line.substr(open + 1, close - open - 1);
    in_name = line.find(") {") == std::string::npos;
  }
  EXPECT_EQ(joined,
            "a long test case name that goes on and on, \\\"quoted\\\", until any "
            "reporter wraps it (pinned invariant)");
}

TEST(PinnedTest, ACatch2NameKeepsItsFirstColonWhereTheConsoleReporterCanIndentBy) {
  // Catch2 v2 indents a wrapped test name by the place of its first ": "
  // and never ends when that is past the line: a long name is pinned as
  // "<test> (pinned <kind>)", a short one as "<test>: pinned <kind>".
  EXPECT_EQ(
      ex::detail::pinned_name(merilo::core::Framework::catch2, "finds it", ex::ViolationKind::invariant),
      "finds it: pinned invariant");
  const std::string long_name(60, 'x');
  EXPECT_EQ(
      ex::detail::pinned_name(merilo::core::Framework::doctest, long_name, ex::ViolationKind::invariant),
      long_name + " (pinned invariant)");
  EXPECT_EQ(ex::detail::pinned_name(merilo::core::Framework::catch2, "a: " + long_name,
                                    ex::ViolationKind::invariant),
            "a: " + long_name + ": pinned invariant");
}

}  // namespace
