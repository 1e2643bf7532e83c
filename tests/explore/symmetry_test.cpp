// symmetry_test.cpp — symmetry reduction: a system's canonical() makes the
// search store one world per group, traces stay concrete, and a canonical
// form that is no symmetry is refused with the rule it broke.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include <merilo/explore/explore.hpp>
#include <merilo/explore/replay.hpp>

#include "fixtures.hpp"

namespace {

namespace ex = merilo::explore;

ex::ExploreOptions quiet(std::size_t max_states, ex::Mode mode = ex::Mode::automatic,
                         unsigned threads = 1) {
  return {.max_states = max_states, .mode = mode, .threads = threads, .quiet = true};
}

// Two interchangeable counters 0..3; the tuple names how many are full, so
// it does not tell the counters apart. 16 worlds, 10 up to order.
class Pair : public fixtures::Counters<2, 3> {
 public:
  [[nodiscard]] World canonical(const World& w) const {
    World c = w;
    std::sort(c.v.begin(), c.v.end());
    return c;
  }
  [[nodiscard]] std::string tuple() const {
    return "full=" + std::to_string((w_.v[0] == 3 ? 1 : 0) + (w_.v[1] == 3 ? 1 : 0));
  }
};

// The same pair with a tuple that names each counter: not symmetric.
class PairNamedTuple : public Pair {
 public:
  [[nodiscard]] std::string tuple() const { return fixtures::Counters<2, 3>::tuple(); }
};

// A canonical form that swaps the low bit of the first counter: applied
// twice it gives the world back, so it is not one world per group.
class Toggle : public fixtures::ReplayOnlyCounters<1, 5> {
 public:
  [[nodiscard]] World canonical(const World& w) const {
    World c = w;
    c.v[0] ^= 1U;
    return c;
  }
};

// The pair with an invariant that tells the counters apart: the search
// stores (2, 0) first, whose canonical form (0, 2) breaks it.
class LopsidedPair : public Pair {
 public:
  [[nodiscard]] std::array<ex::Invariant<LopsidedPair>, 1> invariants() const {
    return {{{"the second counter stays below 2",
              [](const LopsidedPair& s) { return s.w_.v[1] < 2; }}}};
  }
};

// Two slots 0..2, each raised by its own kind, and a third kind, "poke",
// enabled in (0, 2) and in its mirror (2, 0). In (0, 2) it breaks the
// invariant; in (2, 0) it does nothing. canonical() sorts the slots, which
// every check on one world accepts (the invariant, the enabled count, the
// tuple agree), but it is no symmetry: the two worlds' successors differ.
// Breadth-first, (2, 0) stands for the group and (0, 2) is never expanded.
class PokedSlots {
 public:
  struct World {
    std::array<std::uint32_t, 2> v{};
    std::uint32_t broken = 0;
  };
  void reset() { w_ = {}; }
  [[nodiscard]] std::size_t kinds() const { return 3; }
  [[nodiscard]] bool enabled(ex::Kind k) const {
    if (k < 2) return w_.v[k] < 2;
    return (w_.v[0] == 0 && w_.v[1] == 2) || (w_.v[0] == 2 && w_.v[1] == 0);
  }
  ex::Status apply(ex::Kind k) {
    if (k < 2) {
      ++w_.v[k];
    } else if (w_.v[0] == 0) {
      w_.broken = 1;
    }
    return {};
  }
  [[nodiscard]] const World& world() const { return w_; }
  void restore(const World& w) { w_ = w; }
  [[nodiscard]] std::string tuple() const {
    return std::to_string(std::min(w_.v[0], w_.v[1])) + "-" +
           std::to_string(std::max(w_.v[0], w_.v[1]));
  }
  [[nodiscard]] std::string show() const {
    return "(" + std::to_string(w_.v[0]) + ", " + std::to_string(w_.v[1]) + ")" +
           (w_.broken != 0 ? " broken" : "");
  }
  [[nodiscard]] bool settled() const { return true; }
  [[nodiscard]] std::string describe(ex::Kind k) const {
    return k < 2 ? "raise slot " + std::to_string(k) : "poke";
  }
  [[nodiscard]] std::array<ex::Invariant<PokedSlots>, 1> invariants() const {
    return {{{"never broken", [](const PokedSlots& s) { return s.w_.broken == 0; }}}};
  }

 private:
  World w_{};
};

// The same slots stored by a canonical form that sorts them.
class SortedPokedSlots : public PokedSlots {
 public:
  [[nodiscard]] World canonical(const World& w) const {
    World c = w;
    std::sort(c.v.begin(), c.v.end());
    return c;
  }
};

TEST(Symmetry, ACanonicalFormStoresOneWorldPerGroupInBothModesAndOnAnyThreadCount) {
  for (ex::Mode mode : {ex::Mode::replay, ex::Mode::restore}) {
    for (unsigned threads : {1U, 2U}) {
      Pair sys;
      const ex::ExploreResult r = ex::explore(sys, quiet(100, mode, threads));
      ASSERT_TRUE(r.ok()) << r.summary();
      EXPECT_TRUE(r.complete);
      EXPECT_EQ(r.states, 10U);  // pairs a <= b of 0..3
      EXPECT_EQ(r.depth, 6U);
      EXPECT_TRUE(r.symmetry);
      EXPECT_EQ(r.tuples, (std::vector<std::string>{"full=0", "full=1", "full=2"}));
    }
  }
}

TEST(Symmetry, TheSummaryLineSaysTheWorldsAreCanonical) {
  Pair sys;
  EXPECT_EQ(ex::explore(sys, quiet(100)).summary(),
            "merilo: complete=true states=10 depth=6 invariants=0 [] symmetry=canonical");
  fixtures::Counters<2, 3> plain;
  EXPECT_EQ(ex::explore(plain, quiet(100)).summary(),
            "merilo: complete=true states=16 depth=6 invariants=0 []");
}

TEST(Symmetry, TracesToTuplesStayConcreteStepsThatReplay) {
  Pair sys;
  const ex::ExploreResult r = ex::explore(sys, quiet(100));
  ASSERT_TRUE(r.ok()) << r.summary();
  for (std::size_t i = 0; i < r.tuples.size(); ++i) {
    Pair replayed;
    ASSERT_TRUE(ex::replay(replayed, r.tuple_traces[i]).ok());
    EXPECT_EQ(replayed.tuple(), r.tuples[i]);
  }
  EXPECT_EQ(r.tuple_traces.back(), (ex::Trace{0, 0, 0, 1, 1, 1}));
}

TEST(Symmetry, ACanonicalFormThatIsNotIdempotentIsAUsageError) {
  Toggle sys;
  const ex::ExploreResult r = ex::explore(sys, quiet(100));
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.error,
            "merilo: canonical() is not a symmetry of the system: canonical(canonical(w)) differs "
            "from canonical(w); a canonical form must map every world of a group to one world, "
            "itself included (w is the world the trace {} reaches); worlds with one canonical "
            "form are stored as one, so they must behave alike");
}

TEST(Symmetry, ACanonicalWorldThatBreaksAnInvariantTheWorldKeepsIsAUsageError) {
  LopsidedPair sys;
  const ex::ExploreResult r = ex::explore(sys, quiet(100, ex::Mode::restore));
  EXPECT_NE(r.error.find("invariant \"the second counter stays below 2\" holds in w but not in "
                         "canonical(w) (w is the world the trace {0, 0} reaches)"),
            std::string::npos)
      << r.error;
  EXPECT_FALSE(r.violation.found());
}

TEST(Symmetry, ACanonicalWorldThatShowsAnotherTupleIsAUsageError) {
  PairNamedTuple sys;
  const ex::ExploreResult r = ex::explore(sys, quiet(100, ex::Mode::restore));
  EXPECT_NE(r.error.find("tuple() is \"full open\" in w but \"open full\" in canonical(w) (w "
                         "is the world the trace {0, 0, 0} reaches)"),
            std::string::npos)
      << r.error;
}

TEST(Symmetry, WithoutACanonicalFormThePokeInZeroTwoBreaksTheInvariant) {
  PokedSlots sys;
  const ex::ExploreResult r = ex::explore(sys, quiet(100));
  ASSERT_TRUE(r.violation.found()) << r.summary();
  EXPECT_EQ(r.violation.invariant, "never broken");
  EXPECT_EQ(r.violation.trace, (ex::Trace{1, 1, 2}));
}

TEST(Symmetry, ACanonicalFormWhoseWorldsHaveOtherSuccessorsIsAUsageErrorNotACleanSearch) {
  for (ex::Mode mode : {ex::Mode::replay, ex::Mode::restore}) {
    for (unsigned threads : {1U, 2U}) {
      SortedPokedSlots sys;
      const ex::ExploreResult r = ex::explore(sys, quiet(100, mode, threads));
      EXPECT_FALSE(r.ok());
      EXPECT_EQ(r.error,
                "merilo: canonical() is not a symmetry of the system: step \"poke\" from "
                "canonical(w) reaches a world whose canonical form no step from w reaches (w "
                "shows \"(2, 0)\", canonical(w) shows \"(0, 2)\") (w is the world the trace "
                "{0, 0} reaches); worlds with one canonical form are stored as one, so they must "
                "behave alike")
          << "mode " << static_cast<int>(mode) << ", " << threads << " threads";
    }
  }
}

}  // namespace
