// sometimes_test.cpp — reachability properties: a complete search that never
// met one fails naming it, a reached one reports its depth (and, on request,
// a shortest trace), and a bounded search claims nothing.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include <merilo/explore/explore.hpp>
#include <merilo/explore/framework.hpp>
#include <merilo/explore/replay.hpp>

#include "fixtures.hpp"

namespace {

namespace ex = merilo::explore;

// Two counters 0..3 with a reachable corner and an unreachable value.
class Corners : public fixtures::Counters<2, 3> {
 public:
  [[nodiscard]] std::array<ex::Sometimes<Corners>, 3> sometimes() const {
    return {
        {{"both full", [](const Corners& s) { return s.w_.v[0] == 3 && s.w_.v[1] == 3; }},
         {"first at 1", [](const Corners& s) { return s.w_.v[0] == 1; }},
         {"a counter at 4", [](const Corners& s) { return s.w_.v[0] == 4 || s.w_.v[1] == 4; }}}};
  }
};

// Only the properties that can be reached.
class ReachableCorners : public fixtures::Counters<2, 3> {
 public:
  [[nodiscard]] std::array<ex::Sometimes<ReachableCorners>, 2> sometimes() const {
    return {
        {{"both full", [](const ReachableCorners& s) { return s.w_.v[0] == 3 && s.w_.v[1] == 3; }},
         {"at the start", [](const ReachableCorners& s) { return s.w_.v[0] == 0; }}}};
  }
};

// A list with a name twice.
class TwiceNamed : public fixtures::Counters<1, 2> {
 public:
  [[nodiscard]] std::array<ex::Sometimes<TwiceNamed>, 2> sometimes() const {
    return {{{"same", [](const TwiceNamed&) { return true; }},
             {"same", [](const TwiceNamed&) { return true; }}}};
  }
};

ex::ExploreOptions quiet(std::size_t max_states, unsigned threads = 1) {
  return {.max_states = max_states, .threads = threads, .quiet = true};
}

TEST(Sometimes, ACompleteSearchThatNeverMetAPropertyFailsNamingIt) {
  Corners sys;
  const ex::ExploreResult r = ex::explore(sys, quiet(100));
  EXPECT_TRUE(r.complete);
  EXPECT_FALSE(r.violation.found());
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.unreached(), std::vector<std::string>{"a counter at 4"});
  EXPECT_EQ(r.summary(),
            "merilo: complete=true states=16 depth=6 invariants=0 [] sometimes=[both full: depth "
            "6, first at 1: depth 1, a counter at 4: never] unreached=[a counter at 4]");
}

TEST(Sometimes, TheGlueFailsAVacuousSearchWithThePropertysName) {
  Corners sys;
  const ex::ExploreOptions options = quiet(100);
  const ex::ExploreResult r = ex::explore(sys, options);
  const std::string failure =
      ex::explore_failure(sys, options, r, merilo::core::Framework::googletest, "Vacuous");
  EXPECT_NE(failure.find("none satisfied the sometimes property \"a counter at 4\""),
            std::string::npos)
      << failure;
}

TEST(Sometimes, AReachedPropertyReportsItsDepthAndOnRequestAShortestTrace) {
  for (unsigned threads : {1U, 2U}) {
    ReachableCorners sys;
    ex::ExploreOptions options = quiet(100, threads);
    options.sometimes_traces = true;
    const ex::ExploreResult r = ex::explore(sys, options);
    ASSERT_TRUE(r.ok()) << r.summary();
    ASSERT_EQ(r.sometimes.size(), 2U);
    EXPECT_EQ(r.sometimes[0].name, "both full");
    EXPECT_TRUE(r.sometimes[0].reached);
    EXPECT_EQ(r.sometimes[0].depth, 6U);
    EXPECT_EQ(r.sometimes[0].trace, (ex::Trace{0, 0, 0, 1, 1, 1}));
    EXPECT_EQ(r.sometimes[1].depth, 0U);  // the initial world
    EXPECT_TRUE(r.sometimes[1].trace.empty());
    ReachableCorners replayed;
    ASSERT_TRUE(ex::replay(replayed, r.sometimes[0].trace).ok());
    EXPECT_TRUE(replayed.sometimes()[0].holds(replayed));
  }
}

TEST(Sometimes, TracesAreKeptOnlyOnRequest) {
  ReachableCorners sys;
  const ex::ExploreResult r = ex::explore(sys, quiet(100));
  ASSERT_EQ(r.sometimes.size(), 2U);
  EXPECT_TRUE(r.sometimes[0].reached);
  EXPECT_TRUE(r.sometimes[0].trace.empty());
}

TEST(Sometimes, ABoundedSearchSaysNotReachedWithinTheBoundAndClaimsNoVacuity) {
  Corners sys;
  const ex::ExploreResult r = ex::explore(sys, quiet(5));
  EXPECT_FALSE(r.complete);
  EXPECT_TRUE(r.ok()) << r.summary();  // require_complete not set
  EXPECT_TRUE(r.unreached().empty());
  EXPECT_NE(r.summary().find("sometimes=[both full: not reached within the bound, first at 1: "
                             "depth 1, a counter at 4: not reached within the bound]"),
            std::string::npos)
      << r.summary();
  EXPECT_EQ(r.summary().find("unreached="), std::string::npos) << r.summary();
}

TEST(Sometimes, ANameListedTwiceIsAUsageError) {
  TwiceNamed sys;
  const ex::ExploreResult r = ex::explore(sys, quiet(100));
  EXPECT_NE(r.error.find("merilo: sometimes() lists \"same\" twice (numbers 1 and 2)"),
            std::string::npos)
      << r.error;
  EXPECT_EQ(r.states, 0U);
}

}  // namespace
