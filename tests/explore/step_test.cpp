// step_test.cpp — the one step routine and the invariant list: explore and
// replay report the same violation for the same step, invariants are named
// where they are listed, a bad list is a usage error, and the determinism
// sample decides which restored worlds are replayed.
#include <merilo/explore/explore.hpp>
#include <merilo/explore/replay.hpp>
#include <merilo/explore/step.hpp>

#include <gtest/gtest.h>

#include <array>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "fixtures.hpp"

namespace {

namespace ex = merilo::explore;
using ex::Trace;
using ex::ViolationKind;

ex::ExploreOptions quiet(std::size_t max_states) {
  return ex::ExploreOptions{.max_states = max_states, .quiet = true};
}

// A step result and a check result are different types: an invariant
// cannot return a step failure, and apply cannot return a broken invariant.
static_assert(!std::is_convertible_v<ex::Status, ex::InvariantCheck>);
static_assert(!std::is_constructible_v<ex::InvariantCheck, ex::Status>);
static_assert(!std::is_convertible_v<ex::InvariantCheck, ex::Status>);

// Grid with a second invariant, listed after the fixture's own.
struct TwoRules : fixtures::Grid {
  [[nodiscard]] std::array<ex::Invariant<TwoRules>, 2> invariants() const {
    return {{{"x stays below 3", [](const TwoRules& g) { return g.world().x < 3; }},
             {"y stays below 2", [](const TwoRules& g) -> ex::InvariantCheck {
                if (g.world().y >= 2)
                  return ex::InvariantCheck::fails("y is " + std::to_string(g.world().y));
                return true;
              }}}};
  }
};

TEST(Invariants, AViolationCarriesTheNameItIsListedUnder) {
  TwoRules sys;
  const ex::ExploreResult r = ex::explore(sys, quiet(100));
  ASSERT_EQ(r.violation.kind, ViolationKind::invariant);
  EXPECT_EQ(r.violation.invariant, "y stays below 2");
  EXPECT_EQ(r.violation.detail, "y is 2");
  EXPECT_EQ(r.violation.trace, (Trace{fixtures::Grid::kUp, fixtures::Grid::kUp}));
  EXPECT_EQ(r.invariants, (std::vector<std::string>{"x stays below 3", "y stays below 2"}));
}

TEST(Invariants, APredicateReturningFalseBreaksWithoutADetail) {
  TwoRules sys;
  const ex::Replayed r = ex::replay(sys, {0, 0, 0});
  ASSERT_EQ(r.violation.kind, ViolationKind::invariant);
  EXPECT_EQ(r.violation.invariant, "x stays below 3");
  EXPECT_EQ(r.violation.summary(), "invariant \"x stays below 3\" at step 3");
}

// The same Grid with an invariant list chosen by the test.
template <int kBad>
struct BadList : fixtures::Grid {
  [[nodiscard]] std::array<ex::Invariant<BadList>, 2> invariants() const {
    const auto ok = [](const BadList&) { return true; };
    if constexpr (kBad == 0) return {{{"fine", ok}, {"", ok}}};
    if constexpr (kBad == 1) return {{{"twice", ok}, {"twice", ok}}};
    if constexpr (kBad == 2) return {{{"fine", ok}, {"no predicate", nullptr}}};
    return {{{"fine", ok}, {"also fine", ok}}};
  }
};

TEST(Invariants, AnEmptyNameIsAUsageErrorNotAnUnnamedViolation) {
  BadList<0> sys;
  const ex::ExploreResult r = ex::explore(sys, quiet(100));
  EXPECT_EQ(r.error,
            "merilo: invariants() lists an invariant with an empty name (number 2 of 2); every "
            "invariant needs the name violations report it under");
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.states, 0u);
  EXPECT_EQ(ex::replay(sys, {0}).error, r.error);
}

TEST(Invariants, ANameListedTwiceIsAUsageError) {
  BadList<1> sys;
  const ex::ExploreResult r = ex::explore(sys, quiet(100));
  EXPECT_NE(r.error.find("lists \"twice\" twice (numbers 1 and 2)"), std::string::npos) << r.error;
}

TEST(Invariants, AMissingPredicateIsAUsageError) {
  BadList<2> sys;
  const ex::ExploreResult r = ex::explore(sys, quiet(100));
  EXPECT_NE(r.error.find("lists \"no predicate\" without a predicate"), std::string::npos)
      << r.error;
  BadList<3> fine;
  EXPECT_TRUE(ex::explore(fine, quiet(100)).error.empty());
}

// Kind 1 from x == 1 on: apply fails; a predicate throws once y reaches 2.
struct Troubled : fixtures::Grid {
  ex::Status apply(ex::Kind k) {
    if (k == 1 && world().x == 1) return ex::Status::error("y refused at x=1");
    return fixtures::Grid::apply(k);
  }
  [[nodiscard]] std::array<ex::Invariant<Troubled>, 1> invariants() const {
    return {{{"y is readable", [](const Troubled& t) -> ex::InvariantCheck {
                if (t.world().y >= 2) throw std::runtime_error("y overflowed");
                return true;
              }}}};
  }
};

TEST(StepRoutine, ExploreAndReplayReportTheSameFailedStep) {
  Troubled sys;
  const ex::ExploreResult found = ex::explore(sys, quiet(100));
  // Level 2 is expanded from {0} before {1}: the refused step comes first.
  ASSERT_EQ(found.violation.kind, ViolationKind::apply_error);
  EXPECT_EQ(found.violation.trace, (Trace{fixtures::Grid::kRight, fixtures::Grid::kUp}));
  EXPECT_EQ(found.violation.summary(), "apply error at step 2: y refused at x=1");
  const ex::Replayed again = ex::replay(sys, found.violation.trace);
  EXPECT_EQ(again.violation.kind, found.violation.kind);
  EXPECT_EQ(again.violation.trace, found.violation.trace);
  EXPECT_EQ(again.violation.summary(), found.violation.summary());
}

TEST(StepRoutine, ACrashingPredicateIsACrashNamingTheInvariant) {
  Troubled sys;
  const Trace up_twice{fixtures::Grid::kUp, fixtures::Grid::kUp};
  const ex::Replayed r = ex::replay(sys, up_twice);
  ASSERT_EQ(r.violation.kind, ViolationKind::crash);
  EXPECT_EQ(r.violation.trace, up_twice);
  EXPECT_NE(r.violation.detail.find("the predicate of invariant \"y is readable\""),
            std::string::npos)
      << r.violation.detail;
  EXPECT_NE(r.violation.detail.find("y overflowed"), std::string::npos) << r.violation.detail;
}

TEST(StepRoutine, TheTraceEndsWithTheStepThatThrew) {
  fixtures::Throwing sys;
  ex::Stepper<fixtures::Throwing> stepper(sys);
  ASSERT_TRUE(stepper.error().empty());
  ex::Violation v;
  ASSERT_EQ(stepper.start(v), ex::StepEnd::checked);
  Trace taken;
  EXPECT_EQ(stepper.take(fixtures::Throwing::kOk, &taken, v), ex::StepEnd::checked);
  EXPECT_EQ(stepper.take(fixtures::Throwing::kThrow, &taken, v), ex::StepEnd::broke);
  const Trace then_throw{fixtures::Throwing::kOk, fixtures::Throwing::kThrow};
  EXPECT_EQ(v.kind, ViolationKind::crash);
  EXPECT_EQ(v.trace, then_throw);
  EXPECT_EQ(taken, then_throw);
  EXPECT_NE(v.detail.find("escaped apply"), std::string::npos) << v.detail;
}

TEST(StepRoutine, ASeenWorldIsNotCheckedAgain) {
  TwoRules sys;
  ex::Stepper<TwoRules> stepper(sys);
  ex::Violation v;
  ASSERT_EQ(stepper.start(v), ex::StepEnd::checked);
  ASSERT_EQ(stepper.take(1, nullptr, v), ex::StepEnd::checked);
  // y == 2 breaks "y stays below 2", but the caller says it saw the world.
  EXPECT_EQ(stepper.take(1, nullptr, v, [] { return false; }), ex::StepEnd::seen);
  EXPECT_FALSE(v.found());
  EXPECT_EQ(stepper.check(nullptr, v), ex::StepEnd::broke);
  EXPECT_EQ(v.invariant, "y stays below 2");
}

TEST(DeterminismSample, ZeroNeverReplaysARestoredWorld) {
  // Clocked leaks a hidden clock into its world: only a replay from reset
  // can see it, so with no replays the restore search runs to the end.
  fixtures::Clocked sys;
  ex::ExploreOptions options = quiet(100);
  options.mode = ex::Mode::restore;
  options.determinism_sample = 0;
  const ex::ExploreResult unchecked = ex::explore(sys, options);
  EXPECT_FALSE(unchecked.violation.found()) << unchecked.violation.summary();
  EXPECT_TRUE(unchecked.complete);
  EXPECT_EQ(unchecked.states, 4u);
  options.determinism_sample = 1;
  const ex::ExploreResult checked = ex::explore(sys, options);
  EXPECT_EQ(checked.violation.kind, ViolationKind::nondeterminism);
  // The default (64) replays the first 1024 worlds, so it catches it too.
  options.determinism_sample = 64;
  EXPECT_EQ(ex::explore(sys, options).violation.kind, ViolationKind::nondeterminism);
}

}  // namespace
