// explorer_test.cpp — the breadth-first explorer: exact counts, shortest
// traces for every violation kind, determinism across modes and threads,
// truncation and usage errors.
#include <merilo/explore/explore.hpp>

#include <gtest/gtest.h>

#include <array>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fixtures.hpp"

namespace {

namespace ex = merilo::explore;
using ex::Mode;
using ex::Trace;
using ex::ViolationKind;
constexpr ex::Kind kRight = fixtures::Grid::kRight;
constexpr ex::Kind kUp = fixtures::Grid::kUp;
constexpr ex::Kind kX = fixtures::Failing::kX;
constexpr ex::Kind kY = fixtures::Failing::kY;

ex::ExploreOptions quiet(std::size_t max_states, Mode mode = Mode::automatic,
                         unsigned threads = 1) {
  return ex::ExploreOptions{
      .max_states = max_states, .mode = mode, .threads = threads, .quiet = true};
}

// Both results describe the same search.
void expect_same(const ex::ExploreResult& a, const ex::ExploreResult& b) {
  EXPECT_EQ(a.complete, b.complete);
  EXPECT_EQ(a.states, b.states);
  EXPECT_EQ(a.depth, b.depth);
  EXPECT_EQ(a.tuples, b.tuples);
  EXPECT_EQ(a.tuple_traces, b.tuple_traces);
  EXPECT_EQ(a.violation.kind, b.violation.kind);
  EXPECT_EQ(a.violation.trace, b.violation.trace);
  EXPECT_EQ(a.violation.detail, b.violation.detail);
}

TEST(Explorer, CountsEveryWorldOfIndependentCountersInClosedForm) {
  fixtures::Counters<3, 4> sys;  // 5^3 worlds, depth 3*4
  const ex::ExploreResult r = ex::explore(sys, quiet(1000));
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.states, 125u);
  EXPECT_EQ(r.depth, 12u);
  EXPECT_FALSE(r.violation.found());
  EXPECT_TRUE(r.ok());
}

TEST(Explorer, ReplayAndRestoreModesGiveIdenticalResults) {
  fixtures::Counters<4, 5> sys;  // 6^4 = 1296 worlds, depth 20: many chunks
  const ex::ExploreResult replayed = ex::explore(sys, quiet(10'000, Mode::replay));
  const ex::ExploreResult restored = ex::explore(sys, quiet(10'000, Mode::restore));
  EXPECT_EQ(replayed.states, 1296u);
  EXPECT_EQ(replayed.depth, 20u);
  expect_same(replayed, restored);
  // Replay reaches every world from reset, so it applies far more steps.
  EXPECT_GT(replayed.steps, restored.steps);
}

TEST(Explorer, AutomaticModeReplaysASystemWithoutRestore) {
  fixtures::ReplayOnlyCounters<2, 3> sys;
  const ex::ExploreResult r = ex::explore(sys, quiet(100));
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.states, 16u);
  EXPECT_EQ(r.depth, 6u);
}

TEST(Explorer, ResultsAreIdenticalForAnyThreadCount) {
  fixtures::Counters<4, 5> sys;
  const ex::ExploreResult one = ex::explore(sys, quiet(10'000, Mode::replay, 1));
  for (unsigned threads : {2U, 3U, 8U}) {
    fixtures::Counters<4, 5> other;
    expect_same(one, ex::explore(other, quiet(10'000, Mode::replay, threads)));
    expect_same(one, ex::explore(other, quiet(10'000, Mode::restore, threads)));
  }
  fixtures::Grid grid;
  const ex::ExploreResult broken = ex::explore(grid, quiet(100, Mode::restore, 1));
  expect_same(broken, ex::explore(grid, quiet(100, Mode::replay, 4)));
}

TEST(Explorer, ResultsAreIdenticalForAnyThreadCountWhenALevelSpansSeveralSlices) {
  // Levels 9 and 10 of 19 bits hold 92,378 worlds each: two slices. The
  // bound cuts level 10 while level 9 is expanded; the invariant breaks at
  // depth 11, expanded from level 10's two slices.
  constexpr std::size_t kBound = 262'144 + 80'000;
  fixtures::Bits<19> bits;
  const ex::ExploreResult cut = ex::explore(bits, quiet(kBound, Mode::restore, 1));
  EXPECT_FALSE(cut.complete);
  EXPECT_EQ(cut.states, kBound);
  EXPECT_EQ(cut.depth, 9u);
  fixtures::Bits<19, true> broken_bits;
  const ex::ExploreResult broken = ex::explore(broken_bits, quiet(1'000'000, Mode::restore, 1));
  ASSERT_EQ(broken.violation.kind, ViolationKind::invariant);
  EXPECT_EQ(broken.violation.trace.size(), 11u);
  for (unsigned threads : {2U, 3U}) {
    expect_same(cut, ex::explore(bits, quiet(kBound, Mode::restore, threads)));
    expect_same(broken, ex::explore(broken_bits, quiet(1'000'000, Mode::restore, threads)));
  }
  expect_same(broken, ex::explore(broken_bits, quiet(1'000'000, Mode::replay, 2)));
}

TEST(Explorer, TuplesAreSortedWithAShortestTraceToEach) {
  fixtures::Counters<2, 2> sys;
  const ex::ExploreResult r = ex::explore(sys, quiet(100));
  ASSERT_EQ(r.tuples,
            (std::vector<std::string>{"full full", "full open", "open full", "open open"}));
  EXPECT_EQ(r.tuple_traces, (std::vector<Trace>{{0, 0, 1, 1}, {0, 0}, {1, 1}, {}}));
}

TEST(Explorer, ReportsTheShortestTraceToABrokenInvariant) {
  fixtures::Grid sys;
  const ex::ExploreResult r = ex::explore(sys, quiet(100));
  ASSERT_EQ(r.violation.kind, ViolationKind::invariant);
  EXPECT_EQ(r.violation.trace, (Trace{kRight, kRight, kUp}));
  EXPECT_EQ(r.violation.invariant, "not at (2, 1)");
  EXPECT_EQ(r.violation.detail, "reached (2, 1)");
  EXPECT_EQ(r.violation.summary(), "invariant \"not at (2, 1)\" at step 3: reached (2, 1)");
  EXPECT_EQ(r.depth, 2u);
  EXPECT_FALSE(r.ok());
}

TEST(Explorer, ReportsAnInvariantBrokenInTheInitialWorld) {
  struct Broken : fixtures::Grid {
    [[nodiscard]] std::array<ex::Invariant<Broken>, 1> invariants() const {
      return {
          {{"never", [](const Broken&) { return ex::InvariantCheck::fails("from the start"); }}}};
    }
  } sys;
  const ex::ExploreResult r = ex::explore(sys, quiet(100));
  ASSERT_EQ(r.violation.kind, ViolationKind::invariant);
  EXPECT_TRUE(r.violation.trace.empty());
  EXPECT_EQ(r.states, 1u);
  EXPECT_EQ(r.violation.summary(), "invariant \"never\" in the initial world: from the start");
}

TEST(Explorer, ReportsADeadlockWithTheTraceToTheStuckWorld) {
  fixtures::Stuck sys;
  const ex::ExploreResult r = ex::explore(sys, quiet(100));
  ASSERT_EQ(r.violation.kind, ViolationKind::deadlock);
  EXPECT_EQ(r.violation.trace, (Trace{fixtures::Stuck::kStep, fixtures::Stuck::kStep}));
}

TEST(Explorer, ReportsAnApplyErrorWithTheFailingStepLast) {
  fixtures::Failing sys(2, false);
  const ex::ExploreResult r = ex::explore(sys, quiet(100));
  ASSERT_EQ(r.violation.kind, ViolationKind::apply_error);
  EXPECT_EQ(r.violation.trace, (Trace{kX, kX, kY}));
  EXPECT_EQ(r.violation.detail, "refused: rejected");
}

TEST(Explorer, ReportsAnUndeclaredModeChange) {
  fixtures::Failing sys(1, true);
  const ex::ExploreResult r = ex::explore(sys, quiet(100));
  ASSERT_EQ(r.violation.kind, ViolationKind::mode_change);
  EXPECT_EQ(r.violation.trace, (Trace{kX, kY}));
  EXPECT_EQ(r.violation.detail, "serving -> draining without a drain request");
}

TEST(Explorer, ReportsHiddenStateAsNondeterminismInsteadOfExploringIt) {
  for (Mode mode : {Mode::replay, Mode::restore}) {
    fixtures::Clocked sys;
    const ex::ExploreResult r = ex::explore(sys, quiet(1000, mode));
    ASSERT_EQ(r.violation.kind, ViolationKind::nondeterminism) << static_cast<int>(mode);
    EXPECT_EQ(r.violation.trace, (Trace{0}));
    EXPECT_EQ(r.states, 2u);
    EXPECT_NE(r.violation.detail.find("different world"), std::string::npos);
  }
}

TEST(Explorer, ReportsAnExceptionFromTheAdapterAsACrash) {
  fixtures::Throwing sys;
  const ex::ExploreResult r = ex::explore(sys, quiet(100));
  ASSERT_EQ(r.violation.kind, ViolationKind::crash);
  EXPECT_EQ(r.violation.trace, (Trace{fixtures::Throwing::kThrow}));
  EXPECT_NE(r.violation.detail.find("disk on fire"), std::string::npos);
}

TEST(Explorer, StopsAtMaxStatesWithTheDepthItProved) {
  // Worlds within depth d of 3 counters 0..4: 1, 4, 10, 20, 35, then 53.
  fixtures::Counters<3, 4> sys;
  const ex::ExploreResult r = ex::explore(sys, quiet(50));
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.states, 50u);
  EXPECT_EQ(r.depth, 4u);
  EXPECT_TRUE(r.ok());
  ex::ExploreOptions strict = quiet(50);
  strict.require_complete = true;
  const ex::ExploreResult s = ex::explore(sys, strict);
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(s.violation.found());
  // A bound that fits exactly is complete.
  EXPECT_TRUE(ex::explore(sys, quiet(125)).complete);
  EXPECT_FALSE(ex::explore(sys, quiet(124)).complete);
}

TEST(Explorer, RefusesAMissingBound) {
  fixtures::Grid sys;
  const ex::ExploreResult r = ex::explore(sys, ex::ExploreOptions{.quiet = true});
  EXPECT_NE(r.error.find("max_states is required"), std::string::npos) << r.error;
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.states, 0u);
}

TEST(Explorer, RefusesUnboundedThreadsAndKindsNamingTheLimit) {
  // threads = UINT_MAX reserved a copy of the system per thread and ended
  // as "internal error: bad_alloc"; kinds() = SIZE_MAX looped for ever.
  fixtures::Grid grid;
  const ex::ExploreResult many = ex::explore(grid, quiet(10, Mode::replay, UINT_MAX));
  EXPECT_NE(many.error.find("ExploreOptions::threads is 4294967295, above the limit of 256"),
            std::string::npos)
      << many.error;
  EXPECT_TRUE(ex::explore(grid, quiet(10, Mode::replay, ex::kMaxThreads)).error.empty());

  struct Endless : fixtures::Grid {
    [[nodiscard]] std::size_t kinds() const { return SIZE_MAX; }
  };
  Endless endless;
  const ex::ExploreResult r = ex::explore(endless, quiet(10, Mode::replay));
  // SIZE_MAX as this build's size_t spells it (32-bit in make ci's gcc step).
  EXPECT_NE(r.error.find("kinds() is " + std::to_string(SIZE_MAX) + ", above the limit of 65536"),
            std::string::npos)
      << r.error;
  EXPECT_EQ(r.states, 0U);
}

TEST(Explorer, RefusesOptionsItCannotHonour) {
  fixtures::ReplayOnlyCounters<2, 2> replay_only;
  EXPECT_NE(ex::explore(replay_only, quiet(10, Mode::restore)).error.find("no restore"),
            std::string::npos);
  fixtures::Grid grid;
  EXPECT_NE(ex::explore(grid, quiet(10, Mode::replay, 0)).error.find("threads"), std::string::npos);

  struct Pinned : fixtures::Grid {
    Pinned() = default;
    Pinned(const Pinned&) = delete;
    Pinned& operator=(const Pinned&) = delete;
  } pinned;
  EXPECT_NE(ex::explore(pinned, quiet(10, Mode::replay, 2)).error.find("not copy-constructible"),
            std::string::npos);
  EXPECT_TRUE(ex::explore(pinned, quiet(100, Mode::replay, 1)).error.empty());
}

// An adapter whose apply calls back into the explorer.
class Reentrant : public fixtures::Grid {
 public:
  ex::Status apply(ex::Kind k) {
    fixtures::Grid inner;
    last_inner_error = ex::explore(inner, quiet(10)).error;
    return fixtures::Grid::apply(k);
  }
  std::string last_inner_error;
};

TEST(Explorer, RefusesReentryFromAnAdapterCallback) {
  Reentrant sys;
  const ex::ExploreResult r = ex::explore(sys, quiet(100));
  EXPECT_TRUE(r.error.empty());
  EXPECT_EQ(r.violation.kind, ViolationKind::invariant);  // the outer search ran on
  EXPECT_NE(sys.last_inner_error.find("refused re-entry"), std::string::npos)
      << sys.last_inner_error;
  // Outside a callback the guard is released again.
  fixtures::Grid fresh;
  EXPECT_TRUE(ex::explore(fresh, quiet(100)).error.empty());
}

// A world that feeds its bytes itself, holding a std::string.
class Named {
 public:
  struct World {
    std::string name;
    template <class Sink>
    void feed(Sink& sink) const {
      const std::size_t n = name.size();
      sink(&n, sizeof n);
      sink(name.data(), n);
    }
  };
  void reset() { w_ = {}; }
  [[nodiscard]] std::size_t kinds() const { return 2; }
  [[nodiscard]] bool enabled(ex::Kind) const { return w_.name.size() < 3; }
  ex::Status apply(ex::Kind k) {
    w_.name += k == 0 ? 'a' : 'b';
    return {};
  }
  [[nodiscard]] const World& world() const { return w_; }
  [[nodiscard]] std::string tuple() const { return std::to_string(w_.name.size()); }
  [[nodiscard]] bool settled() const { return true; }
  [[nodiscard]] std::string describe(ex::Kind k) const { return k == 0 ? "a" : "b"; }
  [[nodiscard]] std::array<ex::Invariant<Named>, 0> invariants() const { return {}; }
  void restore(const World& w) { w_ = w; }

 private:
  World w_{};
};

TEST(Explorer, FingerprintsWorldsThatFeedTheirOwnBytes) {
  Named sys;
  const ex::ExploreResult r = ex::explore(sys, quiet(100));
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.states, 15u);  // 1 + 2 + 4 + 8 strings
  EXPECT_EQ(r.depth, 3u);
}

TEST(Explorer, SummaryLineNamesTheBoundTheInvariantsAndTheViolation) {
  fixtures::Grid sys;
  const ex::ExploreResult r = ex::explore(sys, quiet(100));
  EXPECT_EQ(
      r.summary(),
      "merilo: complete=false states=8 depth=2 invariants=1 [not at (2, 1)] violation=invariant");
  fixtures::Counters<2, 1> counters;
  EXPECT_EQ(ex::explore(counters, quiet(10)).summary(),
            "merilo: complete=true states=4 depth=2 invariants=0 []");
  ex::ExploreOptions named = quiet(10);
  named.name = "counters, fixed";
  EXPECT_EQ(ex::explore(counters, named).summary(),
            "merilo: counters, fixed: complete=true states=4 depth=2 invariants=0 []");
}

TEST(Explorer, ReportsMemoryPerStoredState) {
  fixtures::Counters<4, 5> sys;
  const ex::ExploreResult r = ex::explore(sys, quiet(10'000));
  EXPECT_GT(r.memory_bytes, r.states * 16);  // a fingerprint each, at least
}

}  // namespace

namespace {

TEST(Explorer, DrawsTheTupleGraphOnRequest) {
  fixtures::Counters<2, 1> sys;
  ex::TupleGraph graph;
  ex::ExploreOptions options = quiet(100);
  options.graph = &graph;
  const ex::ExploreResult r = ex::explore(sys, options);
  EXPECT_EQ(graph.nodes, r.tuples);
  EXPECT_EQ(graph.to_dot("counters"),
            "digraph \"counters\" {\n"
            "  rankdir=LR;\n"
            "  node [shape=box];\n"
            "  \"full full\";\n"
            "  \"full open\";\n"
            "  \"open full\";\n"
            "  \"open open\";\n"
            "  \"full open\" -> \"full full\" [label=\"inc c1\"];\n"
            "  \"open full\" -> \"full full\" [label=\"inc c0\"];\n"
            "  \"open open\" -> \"full open\" [label=\"inc c0\"];\n"
            "  \"open open\" -> \"open full\" [label=\"inc c1\"];\n"
            "}\n");
  // The same graph on several threads.
  ex::TupleGraph threaded;
  options.graph = &threaded;
  options.threads = 3;
  fixtures::Counters<2, 1> other;
  (void)ex::explore(other, options);
  EXPECT_EQ(threaded.edges, graph.edges);
}

}  // namespace
