// twophase_test.cpp — two-phase commit checked every way: the machines'
// tables, the exhaustive search of the fixed round, each seeded bug found on
// its own by the explorer (and by the fuzz runner from the explorer's
// trace), and the pinned counterexamples.
#include <merilo/fuzz/run.hpp>
#include <merilo/gtest.hpp>

#include <twophase/system.hpp>

namespace {

namespace ex = merilo::explore;
namespace fz = merilo::fuzz;
using ex::Trace;
using ex::ViolationKind;
using twophase::Bugs;
using twophase::CoordEvent;
using twophase::CoordOp;
using twophase::CoordState;
using twophase::Decision;
using twophase::Voter;
using twophase::VoterEvent;
using twophase::VoterState;

constexpr Bugs kEarlyCommit{.commit_on_first_yes = true};
constexpr Bugs kLazyLog{.log_after_ack = true};
constexpr Bugs kBoth{.commit_on_first_yes = true, .log_after_ack = true};

// start, prepare reaches v0, v0 votes yes, its yes reaches the coordinator,
// which commits without v1's vote.
using K = twophase::System<>;
const Trace kEarlyCommitTrace = {K::kStart,         // the coordinator sends prepare to both
                                 K::kDeliver + 0,   // prepare reaches v0
                                 K::kYes + 0,       // v0 votes yes
                                 K::kDeliver + 1};  // v0's yes reaches the coordinator
// Both vote yes, the commit reaches v0, the coordinator crashes before any
// acknowledgement, finds nothing logged and presumes abort, which v0's
// commit contradicts.
// (Slot 0 is the oldest message in flight.)
const Trace kLazyLogTrace = {K::kStart,   K::kDeliver + 0, K::kYes + 0,     K::kDeliver + 0,
                             K::kYes + 1, K::kDeliver + 0, K::kDeliver + 0, K::kDeliver + 0,
                             K::kCrash,   K::kRecover};

constexpr ex::ExploreOptions kComplete{
    .max_states = 50'000, .require_complete = true, .quiet = true};
constexpr ex::ExploreOptions kBounded{.max_states = 50'000, .quiet = true};

TEST(TwoPhase, VoterHandlesEveryEventInEveryState) {
  merilo::fsm::FireTable<Voter, VoterEvent> table{
      {Voter{}, Voter::make(), Voter::in(VoterState::asked), Voter::in(VoterState::prepared),
       Voter::in(VoterState::committed), Voter::in(VoterState::aborted)},
      {VoterEvent::none, VoterEvent::prepare, VoterEvent::vote_yes, VoterEvent::vote_no,
       VoterEvent::commit, VoterEvent::abort}};
  merilo::testing::expect_total(table);
}

template <Bugs bugs>
void expect_coordinator_total() {
  using C = twophase::Coordinator<bugs>;
  std::vector<C> machines = {C{}};
  for (CoordState s :
       {CoordState::init, CoordState::collecting, CoordState::committing, CoordState::aborting,
        CoordState::committed, CoordState::aborted, CoordState::down}) {
    machines.push_back(C::in(s));
  }
  machines.push_back(C::in(CoordState::down, Decision::commit));
  std::vector<CoordEvent> events = {CoordEvent{}};
  for (CoordOp op : {CoordOp::start, CoordOp::yes, CoordOp::no, CoordOp::ack, CoordOp::crash,
                     CoordOp::recover}) {
    events.push_back(CoordEvent{op, 0});
    events.push_back(CoordEvent{op, 1});
  }
  merilo::fsm::FireTable<C, CoordEvent> table{machines, events};
  merilo::testing::expect_total(table);
}

TEST(TwoPhase, CoordinatorHandlesEveryEventInEveryState) {
  expect_coordinator_total<Bugs{}>();
  expect_coordinator_total<kBoth>();
}

TEST(TwoPhase, RecoveryResendsALoggedDecisionAndPresumesAbortWithout) {
  using C = twophase::Coordinator<>;
  const auto logged = C::in(CoordState::down, Decision::commit).fire({CoordOp::recover, 0});
  EXPECT_EQ(logged.next.state(), CoordState::committing);
  EXPECT_TRUE(logged.actions.has(twophase::CoordAction::commit_all));
  const auto presumed = C::in(CoordState::down).fire({CoordOp::recover, 0});
  EXPECT_EQ(presumed.next.state(), CoordState::aborting);
  EXPECT_EQ(presumed.next.logged(), Decision::abort);
  EXPECT_TRUE(presumed.actions.has(twophase::CoordAction::abort_all));
}

// The complete search also proves that the fixed round never changes mode
// outside the holder's rule: a mode change would be a violation.
TEST(TwoPhase, ExploresEveryWorldOfTheFixedRound) {
  twophase::System<> sys;
  const ex::ExploreResult r = merilo::testing::explore(sys, kComplete);
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.states, 942u);
  EXPECT_EQ(r.depth, 17u);
}

TEST(TwoPhase, SeededEarlyCommitIsFoundWithTheShortestTrace) {
  twophase::System<kEarlyCommit> sys;
  const ex::ExploreResult r = ex::explore(sys, kBounded);
  ASSERT_EQ(r.violation.kind, ViolationKind::invariant);
  EXPECT_EQ(r.violation.invariant, "commit only after every voter voted yes");
  EXPECT_EQ(r.violation.trace, kEarlyCommitTrace);
}

TEST(TwoPhase, SeededLazyLogIsFoundWithTheShortestTrace) {
  twophase::System<kLazyLog> sys;
  const ex::ExploreResult r = ex::explore(sys, kBounded);
  ASSERT_EQ(r.violation.kind, ViolationKind::invariant);
  EXPECT_EQ(r.violation.invariant, "no voter's outcome contradicts the log");
  EXPECT_EQ(r.violation.trace, kLazyLogTrace);
}

TEST(TwoPhase, EachBugIsSwitchedOnItsOwn) {
  // The lazy log alone never commits early; the early commit alone logs
  // before it sends, so recovery never presumes abort after a commit.
  twophase::System<kLazyLog> lazy;
  EXPECT_TRUE(ex::replay(lazy, kEarlyCommitTrace).ok());
  twophase::System<kEarlyCommit> early;
  const ex::Replayed r = ex::replay(early, kLazyLogTrace);
  ASSERT_TRUE(r.error.empty()) << r.summary();  // the trace fits: not a vacuous pass
  EXPECT_NE(r.violation.invariant, "no voter's outcome contradicts the log") << r.summary();
  // Both on: the early commit is the shorter counterexample.
  twophase::System<kBoth> both;
  EXPECT_EQ(ex::explore(both, kBounded).violation.trace, kEarlyCommitTrace);
}

TEST(TwoPhase, TheFuzzRunnerFindsBothBugsFromTheExplorersTraces) {
  twophase::System<kEarlyCommit> early;
  const fz::Run a = fz::run(early, fz::to_fuzz_bytes(early, kEarlyCommitTrace).bytes, 40);
  EXPECT_EQ(a.violation.trace, kEarlyCommitTrace);
  twophase::System<kLazyLog> lazy;
  const fz::Run b = fz::run(lazy, fz::to_fuzz_bytes(lazy, kLazyLogTrace).bytes, 40);
  EXPECT_EQ(b.violation.trace, kLazyLogTrace);
  EXPECT_EQ(b.violation.invariant, "no voter's outcome contradicts the log");
}

// Pinned: each fails on its buggy round and passes on the fixed one.
TEST(Replay, TwoPhaseEarlyCommit) {
  twophase::System<kEarlyCommit> buggy;
  merilo::testing::expect_replay_finds(buggy, kEarlyCommitTrace, ViolationKind::invariant);
  twophase::System<> fixed;
  merilo::testing::expect_replay_ok(fixed, kEarlyCommitTrace);
}

TEST(Replay, TwoPhaseLazyLog) {
  twophase::System<kLazyLog> buggy;
  merilo::testing::expect_replay_finds(buggy, kLazyLogTrace, ViolationKind::invariant);
  twophase::System<> fixed;
  merilo::testing::expect_replay_ok(fixed, kLazyLogTrace);
}

}  // namespace
