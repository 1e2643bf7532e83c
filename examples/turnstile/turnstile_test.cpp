// turnstile_test.cpp — the turnstile checked every way explore offers.
#include <merilo/gtest.hpp>

#include <turnstile/system.hpp>
#include <turnstile/turnstile.hpp>

namespace {

using merilo::explore::ViolationKind;
using turnstile::Bug;
using turnstile::Event;
using turnstile::State;
using turnstile::Turnstile;

constexpr merilo::explore::ExploreOptions kOptions{.max_states = 100, .require_complete = true};

// A push through the locked turnstile, before anyone paid.
const merilo::explore::Trace kFreePass = {turnstile::System<>::kPush};

TEST(Turnstile, HandlesEveryEventInEveryState) {
  merilo::fsm::FireTable<Turnstile, Event> table{
      {Turnstile{}, Turnstile::in(State::locked), Turnstile::in(State::unlocked)},
      {Event::none, Event::coin, Event::push}};
  merilo::testing::expect_total(table);
}

TEST(Turnstile, ExploresEveryWorld) {
  turnstile::System<> sys;
  auto r = merilo::testing::explore(sys, kOptions);
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.states, 7u);
  EXPECT_EQ(r.depth, 4u);
  EXPECT_EQ(r.tuples, (std::vector<std::string>{"turnstile:locked", "turnstile:unlocked"}));
}

TEST(Turnstile, SeededFreePassIsFoundWithTheShortestTrace) {
  turnstile::System<Bug::free_pass> sys;
  auto r = merilo::explore::explore(sys, {.max_states = 100, .quiet = true});
  ASSERT_EQ(r.violation.kind, ViolationKind::invariant);
  EXPECT_EQ(r.violation.invariant, "no one passes without paying");
  EXPECT_EQ(r.violation.trace, kFreePass);
}

// Pinned: the free-pass trace fails on the buggy adapter, passes on the fixed.
TEST(Replay, TurnstileFreePass) {
  turnstile::System<Bug::free_pass> buggy;
  merilo::testing::expect_replay_finds(buggy, kFreePass, ViolationKind::invariant);
  turnstile::System<> fixed;
  merilo::testing::expect_replay_ok(fixed, kFreePass);
}

}  // namespace
