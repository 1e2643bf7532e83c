// simulate_test.cpp — seeded random walks: they find a seeded bug that a
// bounded search does not reach, repeat exactly for a seed on any thread
// count, shrink the failing walk by replay, and pass the fixed variant.
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include <merilo/explore/explore.hpp>
#include <merilo/explore/replay.hpp>
#include <merilo/explore/simulate.hpp>
#include <tla_twophase/system.hpp>

#include "fixtures.hpp"

namespace {

namespace ex = merilo::explore;

// TwoPhase with 12 RMs: far too many worlds to search, and a seeded early
// commit whose shortest trace has 5 steps.
using Buggy = tla_twophase::System<12, tla_twophase::Bug::early_commit>;
using Fixed = tla_twophase::System<12>;

ex::SimulateOptions walks(std::uint64_t seed, unsigned threads = 1) {
  return {.walks = 2'000, .max_depth = 80, .seed = seed, .threads = threads, .quiet = true};
}

TEST(Simulate, FindsASeededBugABoundedSearchDoesNotReachAndShrinksItsTrace) {
  Buggy sys;
  const ex::ExploreResult bounded = ex::explore(sys, {.max_states = 2'000, .quiet = true});
  ASSERT_FALSE(bounded.violation.found());
  ASSERT_FALSE(bounded.complete);
  const ex::SimulateResult r = ex::simulate(sys, walks(7));
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(r.violation.found()) << r.summary();
  EXPECT_EQ(r.violation.kind, ex::ViolationKind::invariant);
  EXPECT_GT(r.original_length, r.violation.trace.size());
  EXPECT_LE(r.violation.trace.size(), 8U) << ex::format(sys, r.violation.trace);
  EXPECT_GE(r.violation.trace.size(), 5U);
  // The shortened trace is a counterexample like the explorer's.
  const ex::Replayed again = ex::replay(sys, r.violation.trace);
  EXPECT_EQ(again.violation.kind, ex::ViolationKind::invariant);
  EXPECT_EQ(again.violation.invariant, r.violation.invariant);
  EXPECT_FALSE(r.ok());
}

TEST(Simulate, TheSameSeedGivesTheSameResultOnEveryThreadCount) {
  Buggy sys;
  const ex::SimulateResult one = ex::simulate(sys, walks(11));
  ASSERT_TRUE(one.violation.found());
  for (unsigned threads : {1U, 3U}) {
    const ex::SimulateResult r = ex::simulate(sys, walks(11, threads));
    EXPECT_EQ(r.walks, one.walks);
    EXPECT_EQ(r.walk, one.walk);
    EXPECT_EQ(r.steps, one.steps);
    EXPECT_EQ(r.deepest, one.deepest);
    EXPECT_EQ(r.original_length, one.original_length);
    EXPECT_EQ(r.violation.trace, one.violation.trace);
    EXPECT_EQ(r.summary(), one.summary());
  }
}

TEST(Simulate, AnotherSeedTakesOtherWalks) {
  Buggy sys;
  ex::SimulateOptions options = walks(7);
  options.shrink = false;
  const ex::SimulateResult a = ex::simulate(sys, options);
  options.seed = 8;
  const ex::SimulateResult b = ex::simulate(sys, options);
  ASSERT_TRUE(a.violation.found() && b.violation.found());
  EXPECT_NE(a.violation.trace, b.violation.trace);
}

TEST(Simulate, TheFixedVariantPassesEveryWalk) {
  Fixed sys;
  const ex::SimulateResult r = ex::simulate(sys, walks(7, 2));
  EXPECT_TRUE(r.ok()) << r.summary();
  EXPECT_EQ(r.walks, 2'000U);
  EXPECT_EQ(r.deepest, 80U);  // every walk goes to the bound: 12 RMs commit in 3 * 12 + 1 steps
  EXPECT_EQ(r.steps, 2'000U * 80U);
}

TEST(Simulate, ADeadlockIsFoundAndShrunkToItsShortestPath) {
  fixtures::Stuck sys;  // {0, 0} deadlocks; {1} is settled
  const ex::SimulateResult r =
      ex::simulate(sys, {.walks = 50, .max_depth = 10, .seed = 1, .quiet = true});
  ASSERT_TRUE(r.violation.found()) << r.summary();
  EXPECT_EQ(r.violation.kind, ex::ViolationKind::deadlock);
  EXPECT_EQ(r.violation.trace, (ex::Trace{0, 0}));
}

TEST(Simulate, WithoutShrinkingTheWalkIsReportedAsTaken) {
  Buggy sys;
  ex::SimulateOptions options = walks(7);
  options.shrink = false;
  const ex::SimulateResult r = ex::simulate(sys, options);
  ASSERT_TRUE(r.violation.found());
  EXPECT_EQ(r.violation.trace.size(), r.original_length);
  EXPECT_EQ(r.shrink_replays, 0U);
}

TEST(Simulate, TheSummaryLineNamesTheSeedAndTheShrink) {
  Buggy sys;
  ex::SimulateOptions options = walks(7);
  options.name = "twophase";
  const ex::SimulateResult r = ex::simulate(sys, options);
  const std::string line = r.summary();
  EXPECT_EQ(line.rfind("merilo: twophase: simulate seed=7 walks=", 0), 0U) << line;
  EXPECT_NE(line.find(" violation=invariant walk=" + std::to_string(r.walk) +
                      " trace=" + std::to_string(r.original_length) + "->" +
                      std::to_string(r.violation.trace.size())),
            std::string::npos)
      << line;
}

TEST(Simulate, MissingBoundsAndBadThreadCountsAreUsageErrors) {
  Fixed sys;
  EXPECT_NE(ex::simulate(sys, {.max_depth = 5, .quiet = true}).error.find("walks is required"),
            std::string::npos);
  EXPECT_NE(ex::simulate(sys, {.walks = 5, .quiet = true}).error.find("max_depth is required"),
            std::string::npos);
  EXPECT_NE(ex::simulate(sys, {.walks = 5, .max_depth = 5, .threads = 0, .quiet = true})
                .error.find("threads must be at least 1"),
            std::string::npos);
}

}  // namespace
