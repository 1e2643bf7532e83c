// mpi_test.cpp — explore_mpi gives what explore gives: run by ctest under
// `mpirun -np 1`, `-np 2` and `-np 3`, every rank runs every test (the
// searches are collective) and compares its result with the in-process
// explorer's on the same system.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include <merilo/explore/explore.hpp>
#include <merilo/explore/mpi.hpp>
#include <merilo/explore/replay.hpp>

#include <tla_twophase/system.hpp>
#include "fixtures.hpp"

namespace {

namespace ex = merilo::explore;

// The whole result but time and memory, as text the failure message shows.
std::string everything(const ex::ExploreResult& r) {
  std::string out = r.summary() + "\nsteps-free: complete=" + std::to_string(r.complete) +
                    " states=" + std::to_string(r.states) + " depth=" + std::to_string(r.depth) +
                    "\nviolation: " + r.violation.summary() + "\ntrace:";
  for (ex::Kind k : r.violation.trace) out += " " + std::to_string(k);
  out += "\nsometimes:\n";
  for (const ex::SometimesReport& p : r.sometimes) {
    out += "  " + p.name + " reached=" + std::to_string(p.reached) +
           " depth=" + std::to_string(p.depth) + " <-";
    for (ex::Kind k : p.trace) out += " " + std::to_string(k);
    out += "\n";
  }
  out += "tuples:\n";
  for (std::size_t i = 0; i < r.tuples.size(); ++i) {
    out += "  " + r.tuples[i] + " <-";
    for (ex::Kind k : r.tuple_traces[i]) out += " " + std::to_string(k);
    out += "\n";
  }
  return out;
}

// Runs both explorers on copies of `sys` and expects the same result and,
// on a violation, the same readable trace.
template <class S>
ex::MpiResult expect_same(const S& sys, ex::ExploreOptions options) {
  options.quiet = true;
  S in_process = sys;
  const ex::ExploreResult want = ex::explore(in_process, options);
  S distributed = sys;
  ex::MpiResult got = ex::explore_mpi(distributed, options);
  EXPECT_EQ(got.search.error, "");
  EXPECT_EQ(everything(got.search), everything(want));
  EXPECT_EQ(got.search.violation.detail, want.violation.detail);
  if (want.violation.found()) {
    EXPECT_EQ(ex::format(distributed, got.search.violation.trace),
              ex::format(in_process, want.violation.trace));
  }
  return got;
}

// Three counters, one of which must not pass 2 while another is at 0;
// some worlds are dead ends that are not settled.
class Stuckish {
 public:
  struct World {
    std::uint8_t c[3] = {0, 0, 0};
  };
  void reset() { w_ = {}; }
  [[nodiscard]] std::size_t kinds() const { return 3; }
  [[nodiscard]] bool enabled(ex::Kind k) const {
    return w_.c[k] < 3 && !(w_.c[0] == 2 && w_.c[1] == 2);
  }
  ex::Status apply(ex::Kind k) {
    ++w_.c[k];
    return {};
  }
  [[nodiscard]] const World& world() const { return w_; }
  void restore(const World& w) { w_ = w; }
  [[nodiscard]] std::string tuple() const { return std::to_string(w_.c[0] + w_.c[1] + w_.c[2]); }
  [[nodiscard]] bool settled() const { return w_.c[2] == 3 || w_.c[0] + w_.c[1] < 4; }
  [[nodiscard]] std::string describe(ex::Kind k) const { return "inc " + std::to_string(k); }
  [[nodiscard]] std::array<ex::Invariant<Stuckish>, 0> invariants() const { return {}; }

 private:
  World w_{};
};

// Two counters to 5; the step on the second fails once the first is at 3.
class Refusing {
 public:
  struct World {
    std::uint8_t x = 0;
    std::uint8_t y = 0;
  };
  void reset() { w_ = {}; }
  [[nodiscard]] std::size_t kinds() const { return 2; }
  [[nodiscard]] bool enabled(ex::Kind k) const { return (k == 0 ? w_.x : w_.y) < 5; }
  ex::Status apply(ex::Kind k) {
    if (k == 1 && w_.x == 3) return ex::Status::error("the second counter refuses at x=3");
    ++(k == 0 ? w_.x : w_.y);
    return {};
  }
  [[nodiscard]] const World& world() const { return w_; }
  void restore(const World& w) { w_ = w; }
  [[nodiscard]] std::string tuple() const { return std::to_string(w_.x); }
  [[nodiscard]] bool settled() const { return true; }
  [[nodiscard]] std::string describe(ex::Kind k) const { return k == 0 ? "x+1" : "y+1"; }
  [[nodiscard]] std::array<ex::Invariant<Refusing>, 0> invariants() const { return {}; }

 private:
  World w_{};
};

TEST(ExploreMpi, CountsTwoPhaseWithSevenRmsAsTheInProcessExplorerDoes) {
  const ex::MpiResult r =
      expect_same(tla_twophase::System<7>{}, {.max_states = 1'000'000, .require_complete = true});
  EXPECT_TRUE(r.search.ok());
  EXPECT_EQ(r.search.states, 296'448U);
  EXPECT_EQ(r.peak_rss.size(), r.ranks);
  EXPECT_GT(r.transitions, r.search.states);
  if (r.ranks > 1) {
    EXPECT_GT(r.bytes_sent, 0U);
  }
}

TEST(ExploreMpi, ReportsSometimesPropertiesAsTheInProcessExplorerDoes) {
  // Each property's depth and shortest trace; a bounded search that stops
  // before "every RM commits" leaves it unreached in both.
  const ex::MpiResult r =
      expect_same(tla_twophase::System<5>{}, {.max_states = 1'000'000, .sometimes_traces = true});
  ASSERT_EQ(r.search.sometimes.size(), 2U);
  EXPECT_TRUE(r.search.sometimes[0].reached);
  EXPECT_FALSE(r.search.sometimes[0].trace.empty());
  EXPECT_TRUE(r.search.sometimes[1].reached);
  expect_same(tla_twophase::System<5>{}, {.max_states = 200, .sometimes_traces = true});
}

TEST(ExploreMpi, ReducesBySymmetryAndFindsTheSeededBugAsTheInProcessExplorerDoes) {
  // The RMs' symmetry: each rank owns canonical worlds, keeps the concrete
  // world of the least key for each, and the seeded early commit is found
  // on the in-process trace; ctest runs this on 1, 2 and 3 ranks.
  namespace tp = tla_twophase;
  const ex::MpiResult all = expect_same(tp::System<5, tp::Bug::none, tp::Symmetry::rms>{},
                                        {.max_states = 100'000, .require_complete = true});
  EXPECT_TRUE(all.search.ok()) << all.search.summary();
  EXPECT_TRUE(all.search.symmetry);
  const ex::MpiResult unreduced =
      expect_same(tp::System<5>{}, {.max_states = 100'000, .require_complete = true});
  EXPECT_LT(all.search.states, unreduced.search.states);
  const ex::MpiResult bug = expect_same(tp::System<5, tp::Bug::early_commit, tp::Symmetry::rms>{},
                                        {.max_states = 100'000});
  EXPECT_EQ(bug.search.violation.kind, ex::ViolationKind::invariant);
  EXPECT_FALSE(bug.search.violation.trace.empty());
}

// Two counters 0..3 sorted by canonical() and an invariant that tells them
// apart: the search stores (2, 0) first, whose canonical form breaks it.
class LopsidedPair : public fixtures::Counters<2, 3> {
 public:
  [[nodiscard]] World canonical(const World& w) const {
    World c = w;
    std::sort(c.v.begin(), c.v.end());
    return c;
  }
  [[nodiscard]] std::string tuple() const {
    return "full=" + std::to_string((w_.v[0] == 3 ? 1 : 0) + (w_.v[1] == 3 ? 1 : 0));
  }
  [[nodiscard]] std::array<ex::Invariant<LopsidedPair>, 1> invariants() const {
    return {{{"the second counter stays below 2",
              [](const LopsidedPair& s) { return s.w_.v[1] < 2; }}}};
  }
};

TEST(ExploreMpi, RefusesACanonicalFormThatIsNoSymmetryWithTheInProcessError) {
  LopsidedPair in_process;
  const ex::ExploreResult want = ex::explore(in_process, {.max_states = 100, .quiet = true});
  ASSERT_NE(want.error, "");
  LopsidedPair distributed;
  const ex::MpiResult got = ex::explore_mpi(distributed, {.max_states = 100, .quiet = true});
  EXPECT_EQ(got.search.error, want.error);
}

TEST(ExploreMpi, FindsTheSeededEarlyCommitOnTheInProcessTrace) {
  const ex::MpiResult r = expect_same(tla_twophase::System<7, tla_twophase::Bug::early_commit>{},
                                      {.max_states = 1'000'000});
  EXPECT_EQ(r.search.violation.kind, ex::ViolationKind::invariant);
}

TEST(ExploreMpi, FindsTheBrokenGridCornerOnTheShortestTrace) {
  const ex::MpiResult r = expect_same(fixtures::Grid{}, {.max_states = 100});
  EXPECT_EQ(r.search.violation.trace, (ex::Trace{0, 0, 1}));
}

TEST(ExploreMpi, ReportsTheFirstDeadlockAsTheInProcessExplorerDoes) {
  const ex::MpiResult r = expect_same(Stuckish{}, {.max_states = 1000});
  EXPECT_EQ(r.search.violation.kind, ex::ViolationKind::deadlock);
}

TEST(ExploreMpi, StopsAtMaxStatesWhereTheInProcessExplorerStops) {
  for (std::size_t bound : {1U, 2U, 7U, 100U, 511U}) {
    const ex::MpiResult r = expect_same(fixtures::Counters<3, 7>{}, {.max_states = bound});
    EXPECT_FALSE(r.search.complete);
  }
  const ex::MpiResult all = expect_same(fixtures::Counters<3, 7>{}, {.max_states = 512});
  EXPECT_TRUE(all.search.complete);
}

TEST(ExploreMpi, ReportsAnApplyErrorOnTheInProcessTrace) {
  const ex::MpiResult r = expect_same(Refusing{}, {.max_states = 100});
  EXPECT_EQ(r.search.violation.kind, ex::ViolationKind::apply_error);
}

TEST(ExploreMpi, RefusesOptionsItCannotRun) {
  fixtures::Grid g;
  EXPECT_NE(ex::explore_mpi(g, {}).search.error.find("max_states is required"), std::string::npos);
  EXPECT_NE(
      ex::explore_mpi(g, {.max_states = 10, .threads = 2}).search.error.find("one thread per rank"),
      std::string::npos);
  EXPECT_NE(ex::explore_mpi(g, {.max_states = 10, .mode = ex::Mode::replay})
                .search.error.find("Mode::restore"),
            std::string::npos);
  fixtures::ReplayOnlyCounters<2, 2> replay_only;
  EXPECT_NE(ex::explore_mpi(replay_only, {.max_states = 10}).search.error.find("Restorable"),
            std::string::npos);
}

TEST(ExploreMpi, SummaryLineNamesRanksMemoryAndBytesPerTransition) {
  tla_twophase::System<3> sys;
  const ex::MpiResult r = ex::explore_mpi(sys, {.max_states = 1000, .quiet = true});
  const std::string line = r.summary();
  EXPECT_EQ(line.rfind(r.search.summary(), 0), 0U) << line;
  EXPECT_NE(line.find("ranks=" + std::to_string(r.ranks)), std::string::npos) << line;
  EXPECT_NE(line.find("peak RSS/rank"), std::string::npos) << line;
  EXPECT_NE(line.find("B/transition sent"), std::string::npos) << line;
}

}  // namespace

int main(int argc, char** argv) {
  merilo::explore::MpiSession session(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  if (session.rank() != 0) {
    // One report: every rank checks the same results.
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  return RUN_ALL_TESTS();
}
