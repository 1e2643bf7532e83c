// watchdog_test.cpp — the watchdog checked every way: its table, the
// generation rule, the exhaustive search of the fixed watchdog, the seeded
// narrow generation found by the explorer and the fuzz runner, and the
// pinned counterexample.
#include <merilo/fuzz/run.hpp>
#include <merilo/gtest.hpp>

#include <algorithm>

#include <watchdog/system.hpp>

namespace {

namespace ex = merilo::explore;
namespace fz = merilo::fuzz;
using ex::Trace;
using ex::ViolationKind;
using watchdog::Action;
using watchdog::Bug;
using watchdog::Event;
using watchdog::Op;
using watchdog::State;
using watchdog::Watchdog;

// Arm, kick four times, then the first (cancelled) timer expires late: its
// generation 1 matches generation 5 in the low two bits.
using K = watchdog::System<>;
const Trace kNarrowGeneration = {K::kArm, K::kKick, K::kKick, K::kKick, K::kKick, K::kExpire + 0};

template <Bug bug>
void expect_watchdog_total() {
  using W = Watchdog<bug>;
  merilo::fsm::FireTable<W, Event> table{
      {W{}, W::make(3), W::in(State::armed, 1, 3), W::in(State::armed, 3, 3),
       W::in(State::expired, 2, 3), W::in(State::idle, 3, 3)},
      {Event{}, Event{Op::arm, 0}, Event{Op::kick, 0}, Event{Op::timeout, 1}, Event{Op::timeout, 3},
       Event{Op::disarm, 0}}};
  merilo::testing::expect_total(table);
}

TEST(Watchdog, HandlesEveryEventInEveryState) {
  expect_watchdog_total<Bug::none>();
  expect_watchdog_total<Bug::narrow_generation>();
}

TEST(Watchdog, FireItselfDropsAStaleTimeout) {
  auto w = Watchdog<>::make(8).fire({Op::arm, 0}).next;  // generation 1
  w = w.fire({Op::kick, 0}).next;                        // generation 2
  const auto stale = w.fire({Op::timeout, 1});
  EXPECT_EQ(stale.outcome, merilo::fsm::Outcome::ignored);
  EXPECT_EQ(stale.next, w);
  const auto current = w.fire({Op::timeout, 2});
  EXPECT_EQ(current.next.state(), State::expired);
  EXPECT_TRUE(current.actions.has(Action::alarm));
}

TEST(Watchdog, RefusesToStartATimerPastItsGenerationLimit) {
  const auto w = Watchdog<>::in(State::armed, 2, 2);
  EXPECT_FALSE(w.has_generations());
  EXPECT_EQ(w.fire({Op::kick, 0}).outcome, merilo::fsm::Outcome::rejected);
}

TEST(Watchdog, ExploresEveryWorldOfTheFixedWatchdog) {
  watchdog::System<> sys;
  const ex::ExploreResult r = merilo::testing::explore(
      sys, {.max_states = 50'000, .require_complete = true, .quiet = true});
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.states, 640u);
  EXPECT_EQ(r.depth, 13u);
  EXPECT_EQ(r.tuples,
            (std::vector<std::string>{"watchdog:armed", "watchdog:expired", "watchdog:idle"}));
}

TEST(Watchdog, SeededNarrowGenerationIsFoundWithTheShortestTrace) {
  watchdog::System<Bug::narrow_generation> sys;
  const ex::ExploreResult r = ex::explore(sys, {.max_states = 50'000, .quiet = true});
  ASSERT_EQ(r.violation.kind, ViolationKind::invariant);
  EXPECT_EQ(r.violation.invariant, "only the current timer raises the alarm");
  EXPECT_EQ(r.violation.trace, kNarrowGeneration);
}

TEST(Watchdog, TheFuzzRunnerFindsTheNarrowGenerationFromTheExplorersTrace) {
  watchdog::System<Bug::narrow_generation> sys;
  const fz::Run r = fz::run(sys, fz::to_fuzz_bytes(sys, kNarrowGeneration).bytes, 40);
  EXPECT_EQ(r.violation.trace, kNarrowGeneration);
}

TEST(Watchdog, TheDrainLetsEveryTimerExpireAndNeverKicks) {
  // From the empty input the drain arms, lets the timer expire, and again,
  // until the generations run out: no stale timer ever builds up.
  watchdog::System<Bug::narrow_generation> sys;
  const fz::Run r = fz::run(sys, {}, 40);
  EXPECT_TRUE(r.ok()) << r.summary();
  EXPECT_EQ(r.stop, fz::RunEnd::quiescent);  // expired, nothing left to start
  EXPECT_EQ(std::count(r.trace.begin(), r.trace.end(), watchdog::System<>::kKick), 0);
  EXPECT_EQ(std::count(r.trace.begin(), r.trace.end(), watchdog::System<>::kArm), 6);
}

// Pinned: fails on the buggy watchdog, passes on the fixed one (which
// ignores the late timer).
TEST(Replay, WatchdogNarrowGeneration) {
  watchdog::System<Bug::narrow_generation> buggy;
  merilo::testing::expect_replay_finds(buggy, kNarrowGeneration, ViolationKind::invariant);
  watchdog::System<> fixed;
  merilo::testing::expect_replay_ok(fixed, kNarrowGeneration);
}

}  // namespace
