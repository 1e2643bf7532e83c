// relay_test.cpp — the relay checked every way: the exhaustive search of
// the fixed relay, the seeded short sequence found by the explorer and
// replayed by the fuzz runner, why the drain and the mask alone miss it,
// and the pinned counterexample.
#include <merilo/fuzz/run.hpp>
#include <merilo/gtest.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include <relay/system.hpp>

namespace {

namespace ex = merilo::explore;
namespace fz = merilo::fuzz;
using ex::Trace;
using ex::ViolationKind;
using relay::Bug;
using Fixed = relay::System<>;
using Buggy = relay::System<Bug::short_sequence>;

// Deliver message 0, time out (a second copy of 0 stays in slot 0), then
// acks 0..6 and messages 1..7 from slot 1, past the stale copy; with the
// receiver expecting 8, the stale copy of 0 (wire number 0) is taken.
const Trace kShortSequence = {0, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0};

TEST(Relay, ExploresEveryWorldOfTheFixedRelay) {
  Fixed sys;
  const ex::ExploreResult r = merilo::testing::explore(
      sys, {.max_states = 100'000, .require_complete = true, .quiet = true});
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.states, 25266u);
  EXPECT_EQ(r.depth, 27u);
  EXPECT_EQ(r.tuples.size(), 41u);
}

TEST(Relay, SeededShortSequenceIsFoundWithTheShortestTrace) {
  Buggy sys;
  const ex::ExploreResult r = ex::explore(sys, {.max_states = 100'000, .quiet = true});
  ASSERT_EQ(r.violation.kind, ViolationKind::invariant);
  EXPECT_EQ(r.violation.invariant, "the stream is delivered in order");
  EXPECT_EQ(r.violation.trace, kShortSequence);
}

TEST(Relay, TheSeedingSearchOfTheFuzzTargetStopsShortOfTheBug) {
  // fuzz_short_sequence.cpp seeds from 3000 worlds: depth 14 of the 17
  // steps, 30 tuples.
  Buggy sys;
  const ex::ExploreResult r = ex::explore(sys, {.max_states = 3000, .quiet = true});
  EXPECT_FALSE(r.violation.found()) << r.violation.summary();
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.depth, 14u);
  EXPECT_EQ(r.tuples.size(), 30u);
}

TEST(Relay, TheFuzzRunnerFindsTheBugFromTheExplorersTrace) {
  Buggy sys;
  const fz::Run r = fz::run(sys, fz::to_fuzz_bytes(sys, kShortSequence).bytes, 64);
  EXPECT_EQ(r.violation.kind, ViolationKind::invariant);
  EXPECT_EQ(r.violation.trace, kShortSequence);
}

TEST(Relay, TheDrainDeliversTheStaleCopyTooEarlyToMatter) {
  // The bug's first two steps, then the drain: it delivers slot 0 — the
  // stale copy — while the receiver expects 1, and it is dropped.
  Buggy sys;
  const fz::Run r = fz::run(sys, fz::to_fuzz_bytes(sys, {0, 4}).bytes, 64);
  EXPECT_TRUE(r.ok()) << r.summary();
  EXPECT_EQ(r.stop, fz::RunEnd::quiescent);  // all sent and acked, nothing in flight
}

TEST(Relay, MaskingTheFirstSlotKeepsTheStaleCopyOutForGood) {
  // Mask "deliver slot 0" and let the drain run: it times out first (a
  // stale copy of 0 stays in slot 0), then delivers everything else past
  // it — but never the stale copy while anything else is enabled, so the
  // receiver is past message 8 before it could arrive.
  Buggy sys;
  const std::vector<std::uint8_t> in = {0x01, 0x00};
  const fz::Run r = fz::run(sys, in, 64);
  EXPECT_TRUE(r.ok()) << r.summary();
  ASSERT_FALSE(r.trace.empty());
  EXPECT_EQ(r.trace.front(), Buggy::kTimeout);
  EXPECT_EQ(r.stop, fz::RunEnd::quiescent);  // all sent and acked, nothing in flight
}

// Pinned: fails on the buggy relay, passes on the fixed one (whose full
// sequence numbers tell the stale copy apart).
TEST(Replay, RelayShortSequence) {
  Buggy buggy;
  merilo::testing::expect_replay_finds(buggy, kShortSequence, ViolationKind::invariant);
  Fixed fixed;
  merilo::testing::expect_replay_ok(fixed, kShortSequence);
}

}  // namespace
