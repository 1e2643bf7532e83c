// tla_twophase_test.cpp — TwoPhase reaches exactly TLC's state counts in both
// modes, and a seeded bug is reported identically on 1, 2 and 4 threads;
// under symmetry it stores one world per renaming of the RMs (counted here
// by brute force) and still reports the bug on a concrete shortest trace;
// its sometimes properties are reached at the depths the protocol implies.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <set>
#include <tuple>
#include <vector>

#include <merilo/explore/explore.hpp>
#include <merilo/explore/replay.hpp>
#include <merilo/gtest.hpp>

#include <tla_twophase/system.hpp>

namespace {

namespace ex = merilo::explore;
using tla_twophase::Bug;
using tla_twophase::Symmetry;

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

// A world as a tuple of its fields, ordered.
using Key = std::tuple<std::uint32_t, std::uint16_t, std::uint16_t, std::uint8_t, std::uint8_t,
                       std::uint8_t>;

// Every reachable world of TwoPhase with N RMs, by a plain breadth-first
// walk of the adapter (no explorer).
template <unsigned N>
std::vector<typename tla_twophase::System<N>::World> reachable() {
  using W = typename tla_twophase::System<N>::World;
  auto key = [](const W& w) {
    return Key{w.rm_state, w.tm_prepared, w.msg_prepared, w.tm_state, w.msg_commit, w.msg_abort};
  };
  tla_twophase::System<N> sys;
  sys.reset();
  std::vector<W> all{sys.world()};
  std::set<Key> seen{key(sys.world())};
  for (std::size_t i = 0; i < all.size(); ++i) {
    for (ex::Kind k = 0; k < sys.kinds(); ++k) {
      sys.restore(all[i]);
      if (!sys.enabled(k)) continue;
      EXPECT_TRUE(sys.apply(k).ok());
      if (seen.insert(key(sys.world())).second) all.push_back(sys.world());
    }
  }
  return all;
}

// How many classes the reachable worlds fall into when RMs may be renamed:
// each world's class is named by the least of its N! renamings, so this
// does not use the adapter's canonical().
template <unsigned N>
std::size_t orbits() {
  std::set<Key> classes;
  for (const auto& w : reachable<N>()) {
    std::array<unsigned, N> perm{};
    std::iota(perm.begin(), perm.end(), 0U);
    Key least{~0U, 0xFFFF, 0xFFFF, 0xFF, 0xFF, 0xFF};
    do {
      std::uint32_t rm = 0;
      std::uint32_t tmp = 0;
      std::uint32_t msg = 0;
      for (unsigned r = 0; r < N; ++r) {  // RM r of the renamed world is RM perm[r]
        rm |= (w.rm_state >> (2 * perm[r]) & 3U) << (2 * r);
        tmp |= (static_cast<std::uint32_t>(w.tm_prepared) >> perm[r] & 1U) << r;
        msg |= (static_cast<std::uint32_t>(w.msg_prepared) >> perm[r] & 1U) << r;
      }
      least =
          std::min(least, Key{rm, static_cast<std::uint16_t>(tmp), static_cast<std::uint16_t>(msg),
                              w.tm_state, w.msg_commit, w.msg_abort});
    } while (std::next_permutation(perm.begin(), perm.end()));
    classes.insert(least);
  }
  return classes.size();
}

template <unsigned N>
ex::ExploreResult symmetric(ex::Mode mode, unsigned threads = 1) {
  tla_twophase::System<N, Bug::none, Symmetry::rms> sys;
  return ex::explore(sys, {.max_states = 1'000'000,
                           .require_complete = true,
                           .mode = mode,
                           .threads = threads,
                           .quiet = true});
}

template <unsigned N>
void expect_one_world_per_renaming() {
  const ex::ExploreResult full = search<N>(ex::Mode::restore);
  const std::size_t expected = orbits<N>();
  for (ex::Mode mode : {ex::Mode::replay, ex::Mode::restore}) {
    for (unsigned threads : {1U, 2U}) {
      const ex::ExploreResult r = symmetric<N>(mode, threads);
      ASSERT_TRUE(r.ok()) << r.summary();
      EXPECT_EQ(r.states, expected) << N << " RMs";
      EXPECT_EQ(r.depth, full.depth) << N << " RMs";
      EXPECT_EQ(r.tuples, full.tuples) << N << " RMs";  // tuples count RMs, so none is lost
    }
  }
}

TEST(TlaTwoPhase, UnderSymmetryTheSearchStoresOneWorldPerRenamingOfTheRms) {
  EXPECT_EQ(reachable<3>().size(), 288U);  // the brute force agrees with TLC
  expect_one_world_per_renaming<2>();
  expect_one_world_per_renaming<3>();
  expect_one_world_per_renaming<4>();
  expect_one_world_per_renaming<5>();
}

TEST(TlaTwoPhase, UnderSymmetryTheSeededBugHasAConcreteShortestTraceThatReplays) {
  tla_twophase::System<6, Bug::early_commit, Symmetry::rms> sys;
  const ex::ExploreResult plain = buggy(ex::Mode::restore, 1);
  for (ex::Mode mode : {ex::Mode::replay, ex::Mode::restore}) {
    const ex::ExploreResult one =
        ex::explore(sys, {.max_states = 1'000'000, .mode = mode, .quiet = true});
    ASSERT_EQ(one.violation.kind, ex::ViolationKind::invariant) << one.summary();
    EXPECT_EQ(one.violation.invariant, plain.violation.invariant);
    EXPECT_EQ(one.violation.trace.size(), plain.violation.trace.size());  // still shortest
    EXPECT_LT(one.states, plain.states);
    // The pinned test replays the real steps, on the adapter with or
    // without the symmetry.
    tla_twophase::System<6, Bug::early_commit> concrete;
    merilo::testing::expect_replay_finds(concrete, one.violation.trace,
                                         ex::ViolationKind::invariant);
    merilo::testing::expect_replay_finds(sys, one.violation.trace, ex::ViolationKind::invariant);
    for (unsigned threads : {2U, 4U}) {
      const ex::ExploreResult r = ex::explore(
          sys, {.max_states = 1'000'000, .mode = mode, .threads = threads, .quiet = true});
      EXPECT_EQ(r.states, one.states) << threads << " threads";
      EXPECT_EQ(r.violation.trace, one.violation.trace) << threads << " threads";
    }
  }
}

TEST(TlaTwoPhase, SomeRmCommitsAfterTwoNPlusTwoStepsAndEveryRmAfterThreeNPlusOne) {
  tla_twophase::System<4> sys;
  const ex::ExploreResult r = ex::explore(
      sys,
      {.max_states = 100'000, .require_complete = true, .quiet = true, .sometimes_traces = true});
  ASSERT_TRUE(r.ok()) << r.summary();
  ASSERT_EQ(r.sometimes.size(), 2U);
  EXPECT_EQ(r.sometimes[0].depth, 10U);  // 4 prepares, 4 received, TMCommit, one RM learns
  EXPECT_EQ(r.sometimes[1].depth, 13U);  // and the other three
  for (const ex::SometimesReport& p : r.sometimes) {
    tla_twophase::System<4> replayed;
    ASSERT_TRUE(ex::replay(replayed, p.trace).ok());
    EXPECT_EQ(p.trace.size(), p.depth);
  }
  EXPECT_NE(r.summary().find("sometimes=[some RM commits: depth 10, every RM commits: depth 13]"),
            std::string::npos)
      << r.summary();
  const ex::ExploreResult sym = symmetric<4>(ex::Mode::restore);
  EXPECT_EQ(sym.sometimes[0].depth, 10U);
  EXPECT_EQ(sym.sometimes[1].depth, 13U);
}

}  // namespace
