// relay_test.cpp — the relay checked every way: the exhaustive search of
// the fixed relay, the seeded two-bit sequence found by the explorer and
// replayed by the fuzz runner, why the drain and the mask alone miss it,
// and the pinned counterexample.
#include <merilo/explore/gtest.hpp>
#include <merilo/fuzz/run.hpp>

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
using Buggy = relay::System<Bug::two_bit_sequence>;

// Deliver message 0, time out (a second copy of 0 stays in slot 0), then
// messages 1..3 and acks 0..2 from slot 1, past the stale copy; with the
// receiver expecting 4, the stale copy of 0 (wire number 0) is taken.
const Trace kTwoBitSequence = {0, 4, 1, 1, 1, 1, 1, 1, 0};

TEST(Relay, ExploresEveryWorldOfTheFixedRelay) {
  Fixed sys;
  const ex::Result r = merilo::testing::explore(
      sys, {.max_states = 100'000, .require_complete = true, .quiet = true});
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.states, 4220u);
  EXPECT_EQ(r.depth, 19u);
  EXPECT_EQ(r.tuples.size(), 25u);
}

TEST(Relay, SeededTwoBitSequenceIsFoundWithTheShortestTrace) {
  Buggy sys;
  const ex::Result r = ex::explore(sys, {.max_states = 100'000, .quiet = true});
  ASSERT_EQ(r.violation.kind, ViolationKind::invariant);
  EXPECT_EQ(r.violation.invariant, "the stream is delivered in order");
  EXPECT_EQ(r.violation.trace, kTwoBitSequence);
}

TEST(Relay, TheSeedingSearchOfTheFuzzTargetStopsShortOfTheBug) {
  // fuzz_two_bit_sequence.cpp seeds from 100 worlds: depth 6 of the 9 steps.
  Buggy sys;
  const ex::Result r = ex::explore(sys, {.max_states = 100, .quiet = true});
  EXPECT_FALSE(r.violation.found()) << r.violation.describe();
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.depth, 6u);
}

TEST(Relay, TheFuzzRunnerFindsTheBugFromTheExplorersTrace) {
  Buggy sys;
  const fz::Run r = fz::run(sys, fz::to_fuzz_bytes(sys, kTwoBitSequence).bytes, 64);
  EXPECT_EQ(r.violation.kind, ViolationKind::invariant);
  EXPECT_EQ(r.violation.trace, kTwoBitSequence);
}

TEST(Relay, TheDrainDeliversTheStaleCopyTooEarlyToMatter) {
  // The bug's first two steps, then the drain: it delivers slot 0 — the
  // stale copy — while the receiver expects 1, and it is dropped.
  Buggy sys;
  const fz::Run r = fz::run(sys, fz::to_fuzz_bytes(sys, {0, 4}).bytes, 64);
  EXPECT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.stop, fz::Stop::quiescent);  // all sent and acked, nothing in flight
}

TEST(Relay, MaskingTheFirstSlotKeepsTheStaleCopyOutForGood) {
  // Mask "deliver slot 0" and let the drain run: it times out first (a
  // stale copy of 0 stays in slot 0), then delivers everything else past
  // it — but never the stale copy while anything else is enabled, so the
  // receiver is past message 4 before it could arrive.
  Buggy sys;
  const std::vector<std::uint8_t> in = {0x01, 0x00};
  const fz::Run r = fz::run(sys, in, 64);
  EXPECT_TRUE(r.ok()) << r.describe();
  ASSERT_FALSE(r.trace.empty());
  EXPECT_EQ(r.trace.front(), Buggy::kTimeout);
  EXPECT_EQ(r.stop, fz::Stop::quiescent);  // all sent and acked, nothing in flight
}

// Pinned: fails on the buggy relay, passes on the fixed one (whose full
// sequence numbers tell the stale copy apart).
TEST(Replay, RelayTwoBitSequence) {
  Buggy buggy;
  merilo::testing::expect_replay_finds(buggy, kTwoBitSequence, ViolationKind::invariant);
  Fixed fixed;
  merilo::testing::expect_replay_ok(fixed, kTwoBitSequence);
}

}  // namespace
