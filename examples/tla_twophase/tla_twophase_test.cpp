// tla_twophase_test.cpp — TwoPhase reaches exactly TLC's state counts in both
// modes, and a seeded bug is reported identically on 1, 2 and 4 threads.
#include <gtest/gtest.h>

#include <merilo/explore/explore.hpp>
#include <merilo/explore/replay.hpp>

#include <tla_twophase/system.hpp>

namespace {

namespace ex = merilo::explore;
using tla_twophase::Bug;

template <unsigned N>
ex::ExploreResult search(ex::Mode mode, unsigned threads = 1) {
  tla_twophase::System<N> sys;
  return ex::explore(sys, {.max_states = 1'000'000,
                           .require_complete = true,
                           .mode = mode,
                           .threads = threads,
                           .quiet = true});
}

TEST(TlaTwoPhase, ReachesTheKnownStateCountsInBothModes) {
  for (ex::Mode mode : {ex::Mode::replay, ex::Mode::restore}) {
    const ex::ExploreResult r3 = search<3>(mode);
    EXPECT_TRUE(r3.ok()) << r3.summary();
    EXPECT_EQ(r3.states, 288U);
    const ex::ExploreResult r5 = search<5>(mode);
    EXPECT_TRUE(r5.ok()) << r5.summary();
    EXPECT_EQ(r5.states, 8'832U);
  }
  const ex::ExploreResult r7 = search<7>(ex::Mode::restore, 2);
  EXPECT_TRUE(r7.ok()) << r7.summary();
  EXPECT_EQ(r7.states, 296'448U);
  const ex::ExploreResult r7replay = search<7>(ex::Mode::replay, 2);
  EXPECT_EQ(r7replay.states, 296'448U);
  EXPECT_EQ(r7replay.depth, r7.depth);
  EXPECT_EQ(r7replay.tuples, r7.tuples);
}

TEST(TlaTwoPhase, TuplesCountRmsPerStateAndTheirKeysAgree) {
  const ex::ExploreResult r = search<3>(ex::Mode::restore);
  ASSERT_TRUE(r.ok()) << r.summary();
  // tm:init with any split of 3 RMs, plus the decided TM's reachable splits.
  EXPECT_EQ(r.tuples.front(), "tm:aborted working=0 prepared=0 committed=0 aborted=3");
  for (std::size_t i = 0; i < r.tuples.size(); ++i) {
    tla_twophase::System<3> sys;
    ASSERT_TRUE(ex::replay(sys, r.tuple_traces[i]).ok());
    EXPECT_EQ(sys.tuple(), r.tuples[i]);
  }
}

// The seeded early commit on `threads` threads.
ex::ExploreResult buggy(ex::Mode mode, unsigned threads) {
  tla_twophase::System<6, Bug::early_commit> sys;
  return ex::explore(sys,
                     {.max_states = 1'000'000, .mode = mode, .threads = threads, .quiet = true});
}

TEST(TlaTwoPhase, ASeededBugIsReportedIdenticallyOnOneTwoAndFourThreads) {
  for (ex::Mode mode : {ex::Mode::replay, ex::Mode::restore}) {
    const ex::ExploreResult one = buggy(mode, 1);
    ASSERT_EQ(one.violation.kind, ex::ViolationKind::invariant) << one.summary();
    EXPECT_EQ(one.violation.invariant, "no RM commits while another aborts");
    EXPECT_GT(one.states, 1'000U);
    for (unsigned threads : {2U, 4U}) {
      const ex::ExploreResult r = buggy(mode, threads);
      EXPECT_EQ(r.states, one.states) << threads << " threads";
      EXPECT_EQ(r.depth, one.depth) << threads << " threads";
      EXPECT_EQ(r.violation.kind, one.violation.kind) << threads << " threads";
      EXPECT_EQ(r.violation.trace, one.violation.trace) << threads << " threads";
      EXPECT_EQ(r.tuples, one.tuples) << threads << " threads";
      EXPECT_EQ(r.tuple_traces, one.tuple_traces) << threads << " threads";
    }
  }
}

TEST(TlaTwoPhase, TheBugsTraceCommitsAfterOnePrepareAndAbortsAnother) {
  const ex::ExploreResult r = buggy(ex::Mode::restore, 1);
  ASSERT_TRUE(r.violation.found());
  tla_twophase::System<6, Bug::early_commit> sys;
  const std::string text = ex::format(sys, r.violation.trace);
  EXPECT_NE(text.find("TMCommit"), std::string::npos) << text;
  EXPECT_NE(text.find("RMChooseToAbort"), std::string::npos) << text;
  // show() puts the data beside the tuple: the commit message was sent, and
  // some RM is committed while another aborted.
  EXPECT_NE(text.find("msgs={prepared="), std::string::npos) << text;
  EXPECT_NE(text.find(" commit}"), std::string::npos) << text;
}

TEST(TlaTwoPhase, ShowPrintsEveryRmTheTmsPreparedSetAndTheMessages) {
  tla_twophase::System<3> sys;
  sys.reset();
  ASSERT_TRUE(sys.apply(0).ok());  // RMPrepare(rm0)
  ASSERT_TRUE(sys.apply(4).ok());  // TMRcvPrepared(rm0)
  ASSERT_TRUE(sys.apply(6).ok());  // RMChooseToAbort(rm1)
  EXPECT_EQ(sys.show(), "rm=paw tmPrepared=100 msgs={prepared=100}");
  const std::string text = ex::format(sys, {0, 4, 6});
  EXPECT_NE(text.find("| tm:init working=1 prepared=1 committed=0 aborted=1 | rm=paw "
                      "tmPrepared=100 msgs={prepared=100}"),
            std::string::npos)
      << text;
}

}  // namespace
