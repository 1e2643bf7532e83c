// compaction_test.cpp — hash compaction: what a tiny compact fingerprint
// costs (coverage, reported as a miss probability), what a normal one gives
// (the exact counts), and that a counterexample is always a real one.
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include <merilo/explore/detail/compact_table.hpp>
#include <merilo/explore/explore.hpp>
#include <merilo/explore/replay.hpp>

#include "fixtures.hpp"

namespace {

namespace ex = merilo::explore;
namespace dt = merilo::explore::detail;

// 12 bits, each set once by its own kind (4,096 worlds); the invariant
// "bits 0..9 are not all set" first breaks at depth 10, in 1 of 4 worlds.
class SixOfTwelve {
 public:
  struct World {
    std::uint32_t v = 0;
  };
  void reset() { w_ = {}; }
  [[nodiscard]] std::size_t kinds() const { return 12; }
  [[nodiscard]] bool enabled(ex::Kind k) const { return (w_.v >> k & 1U) == 0; }
  ex::Status apply(ex::Kind k) {
    w_.v |= 1U << k;
    return {};
  }
  [[nodiscard]] const World& world() const { return w_; }
  void restore(const World& w) { w_ = w; }
  [[nodiscard]] std::string tuple() const { return w_.v == 0xFFFU ? "all" : "some"; }
  [[nodiscard]] bool settled() const { return true; }
  [[nodiscard]] std::string describe(ex::Kind k) const { return "set b" + std::to_string(k); }
  [[nodiscard]] std::array<ex::Invariant<SixOfTwelve>, 1> invariants() const {
    return {{{"not bits 0..9", [](const SixOfTwelve& b) { return (b.w_.v & 0x3FFU) != 0x3FFU; }}}};
  }

 private:
  World w_{};
};

ex::ExploreOptions quiet(std::size_t max_states) {
  ex::ExploreOptions o;
  o.max_states = max_states;
  o.quiet = true;
  return o;
}

TEST(Compaction, OneBitFingerprintsMergeWorldsAndReportAMissProbability) {
  fixtures::Counters<3, 9> sys;  // 1000 worlds
  ex::ExploreOptions options = quiet(10'000);
  options.compact_bits = 1;
  const ex::ExploreResult r = ex::explore(sys, options);
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_LT(r.states, 1000U);  // worlds merged: coverage lost
  EXPECT_EQ(r.compact_bits, 1U);
  EXPECT_GT(r.miss_probability, 0.0);
  EXPECT_LE(r.miss_probability, 1.0);
  EXPECT_FALSE(r.violation.found());
  EXPECT_NE(r.summary().find(" compaction=1bit slots="), std::string::npos) << r.summary();
  EXPECT_NE(r.summary().find(" miss<=1"), std::string::npos) << r.summary();
}

TEST(Compaction, FortyBitFingerprintsGiveTheExactCountsOnEveryThreadCount) {
  fixtures::Counters<4, 9> sys;  // 10'000 worlds
  const ex::ExploreResult exact = ex::explore(sys, quiet(100'000));
  ASSERT_TRUE(exact.complete);
  for (unsigned threads : {1U, 3U}) {
    for (ex::Mode mode : {ex::Mode::replay, ex::Mode::restore}) {
      ex::ExploreOptions options = quiet(100'000);
      options.compact_bits = 40;
      options.threads = threads;
      options.mode = mode;
      const ex::ExploreResult r = ex::explore(sys, options);
      ASSERT_TRUE(r.error.empty()) << r.error;
      EXPECT_TRUE(r.complete);
      EXPECT_EQ(r.states, exact.states);
      EXPECT_EQ(r.depth, exact.depth);
      EXPECT_EQ(r.tuples, exact.tuples);
      EXPECT_EQ(r.tuple_traces, exact.tuple_traces);
      EXPECT_GT(r.miss_probability, 0.0);
      EXPECT_LT(r.miss_probability, 1e-6);
      EXPECT_EQ(exact.miss_probability, 0.0);
      EXPECT_EQ(exact.compact_bits, 0U);
    }
  }
}

TEST(Compaction, TheExactModeSummaryLineDoesNotMentionCompaction) {
  fixtures::Counters<2, 3> sys;
  const ex::ExploreResult r = ex::explore(sys, quiet(100));
  EXPECT_EQ(r.summary().find("compaction"), std::string::npos) << r.summary();
}

TEST(Compaction, CompactCountsDoNotDependOnTheThreadCount) {
  fixtures::Counters<4, 9> sys;
  ex::ExploreOptions options = quiet(100'000);
  options.compact_bits = 6;
  const ex::ExploreResult one = ex::explore(sys, options);
  ASSERT_LT(one.states, 10'000U);
  for (unsigned threads : {2U, 4U}) {
    options.threads = threads;
    const ex::ExploreResult r = ex::explore(sys, options);
    EXPECT_EQ(r.states, one.states);
    EXPECT_EQ(r.depth, one.depth);
    EXPECT_EQ(r.tuple_traces, one.tuple_traces);
    EXPECT_EQ(r.miss_probability, one.miss_probability);
  }
}

TEST(Compaction, EveryReportedCounterexampleReplaysToTheSameRule) {
  // With few bits the search may miss the broken worlds, or reach one along
  // a longer path; whatever it reports must break the rule when followed
  // from reset.
  SixOfTwelve sys;
  const ex::ExploreResult exact = ex::explore(sys, quiet(100'000));
  ASSERT_TRUE(exact.violation.found());
  bool changed = false;  // some run missed the bug or found a longer trace
  for (unsigned bits = 1; bits <= 12; ++bits) {
    for (unsigned threads : {1U, 2U}) {
      ex::ExploreOptions options = quiet(4'096);  // a table at a high load
      options.compact_bits = bits;
      options.threads = threads;
      const ex::ExploreResult r = ex::explore(sys, options);
      ASSERT_TRUE(r.error.empty()) << r.error;
      EXPECT_FALSE(r.unconfirmed_counterexample);
      if (!r.violation.found()) {
        changed = true;
        EXPECT_GT(r.miss_probability, 0.0);
        continue;
      }
      EXPECT_GE(r.violation.trace.size(), exact.violation.trace.size());
      if (r.violation.trace.size() > exact.violation.trace.size()) changed = true;
      const ex::Replayed again = ex::replay(sys, r.violation.trace);
      EXPECT_EQ(again.violation.kind, ex::ViolationKind::invariant) << bits;
      EXPECT_EQ(again.violation.invariant, exact.violation.invariant);
    }
  }
  EXPECT_TRUE(changed) << "one bit per world should hide the shortest trace's world";
  ex::ExploreOptions options = quiet(100'000);
  options.compact_bits = 48;
  const ex::ExploreResult r = ex::explore(sys, options);
  EXPECT_EQ(r.violation.trace, exact.violation.trace);  // a normal k: the shortest trace
}

TEST(Compaction, ACounterexampleIsConfirmedOnlyWhenItsTraceBreaksTheSameRule) {
  fixtures::Grid sys;
  ex::Stepper<fixtures::Grid> stepper(sys);
  const ex::Violation real{ex::ViolationKind::invariant, {0, 0, 1}, "not at (2, 1)", ""};
  EXPECT_TRUE(dt::reproduces(stepper, real));
  ex::Violation shorter = real;
  shorter.trace = {0, 1};  // (1, 1): breaks nothing
  EXPECT_FALSE(dt::reproduces(stepper, shorter));
  ex::Violation other = real;
  other.invariant = "another rule";
  EXPECT_FALSE(dt::reproduces(stepper, other));
}

TEST(Compaction, ABudgetAloneSizesTheTableForMaxStatesAndDerivesTheBits) {
  const dt::CompactPlan plan = dt::compact_plan(0, 1'000, 1'000);
  EXPECT_TRUE(plan.error.empty());
  EXPECT_EQ(plan.bits, 8000U / (1000U + 125U + 64U));
  EXPECT_GE(plan.slots, 1000U + 125U);
  EXPECT_LE(plan.slots * plan.bits, 8000U);
  const dt::CompactPlan wide = dt::compact_plan(0, 1'000'000, 1'000);
  EXPECT_EQ(wide.bits, 64U);  // no more than 64 bits; the rest buys slots
  EXPECT_EQ(wide.slots, 1'000'000U * 8U / 64U);
  fixtures::Counters<3, 9> sys;
  ex::ExploreOptions options = quiet(1'000);
  options.compact_bytes = 1'000;
  const ex::ExploreResult r = ex::explore(sys, options);
  EXPECT_EQ(r.compact_bits, plan.bits);
  EXPECT_EQ(r.compact_slots, plan.slots);
}

TEST(Compaction, ASearchThatFillsItsTableStopsIncompleteAndSaysSo) {
  fixtures::Counters<3, 9> sys;
  ex::ExploreOptions options = quiet(10'000);
  options.compact_bits = 32;
  options.compact_bytes = 400;  // 100 slots
  for (unsigned threads : {1U, 2U}) {
    options.threads = threads;
    const ex::ExploreResult r = ex::explore(sys, options);
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_FALSE(r.complete);
    EXPECT_TRUE(r.compact_full);
    EXPECT_EQ(r.compact_slots, 100U);
    EXPECT_EQ(r.states, 99U);  // one slot stays empty
    EXPECT_NE(r.summary().find("table=full"), std::string::npos) << r.summary();
  }
}

TEST(Compaction, BadCompactionOptionsAreUsageErrorsNamingTheOption) {
  fixtures::Counters<2, 3> sys;
  ex::ExploreOptions options = quiet(1'000);
  options.compact_bits = 65;
  ex::ExploreResult r = ex::explore(sys, options);
  EXPECT_NE(r.error.find("compact_bits is 65"), std::string::npos) << r.error;
  options.compact_bits = 0;
  options.compact_bytes = 10;  // 1,189 slots, under a bit each
  r = ex::explore(sys, options);
  EXPECT_NE(r.error.find("compact_bytes is 10"), std::string::npos) << r.error;
  options.compact_bits = 64;
  options.compact_bytes = 8;  // one slot
  r = ex::explore(sys, options);
  EXPECT_NE(r.error.find("compact_bytes is 8"), std::string::npos) << r.error;
}

TEST(Compaction, TheMissBoundGrowsWithTheLoadAndShrinksWithTheBits) {
  EXPECT_EQ(dt::compact_miss_bound(0, 100, 8), 0.0);
  const double half = dt::compact_miss_bound(1'000'000, 2'000'000, 40);
  const double most = dt::compact_miss_bound(1'800'000, 2'000'000, 40);
  EXPECT_GT(most, half);
  EXPECT_LT(dt::compact_miss_bound(1'000'000, 2'000'000, 48), half);
  // n * load / (1 - load) / 2 comparisons, each a 2^-40 chance (about).
  EXPECT_NEAR(half, 1e6 * 0.5 / 0.5 / 2 * 0x1p-40, 1e-12);
  EXPECT_EQ(dt::compact_miss_bound(1'000, 1'001, 1), 1.0);
}

TEST(Compaction, ATableOfPackedValuesKeepsEveryWidthApart) {
  for (unsigned bits : {1U, 5U, 13U, 40U, 63U, 64U}) {
    dt::CompactTable t(1'000, bits);
    std::size_t fresh = 0;
    for (std::uint64_t i = 1; i <= 500; ++i) {
      const dt::Fingerprint fp{i * 0x9E3779B97F4A7C15ULL, (i * 0xC2B2AE3D27D4EB4FULL) ^ (i << 61U)};
      if (t.insert_in(t.shard_of(fp), fp) == dt::Inserted::fresh) ++fresh;
      EXPECT_TRUE(t.contains(fp)) << bits << " " << i;
    }
    EXPECT_EQ(t.size(), fresh);
    if (bits >= 40) {
      EXPECT_EQ(fresh, 500U) << bits;
    }
    EXPECT_LE(t.memory_bytes(), (1'000U * bits + 63U) / 64U * 8U + 8U);
  }
}

}  // namespace

namespace {

TEST(Compaction, TheSummaryLineNamesTheTableAndTheBoundAsTheGuideShows) {
  fixtures::Counters<4, 9> sys;
  ex::ExploreOptions options = quiet(10'000);
  options.compact_bits = 40;
  const ex::ExploreResult r = ex::explore(sys, options);
  EXPECT_EQ(r.summary(),
            "merilo: complete=true states=10000 depth=36 invariants=0 [] compaction=40bit "
            "slots=11314 miss<=3.46e-08");  // docs/explore.md, "Hash compaction"
}

}  // namespace
