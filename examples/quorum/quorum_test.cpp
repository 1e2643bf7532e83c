// quorum_test.cpp — the quorum register checked every way: the exhaustive
// search of the fixed register, the seeded half quorum found by the
// explorer with its shortest trace, the 16-replica fuzz target's seeding
// search stopping short of it, the one choice the fuzzer has to add to a
// seed, and the pinned counterexample.
#include <merilo/fuzz/run.hpp>
#include <merilo/gtest.hpp>

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <string>

#include <quorum/system.hpp>

namespace {

namespace ex = merilo::explore;
namespace fz = merilo::fuzz;
using ex::Trace;
using ex::ViolationKind;
using quorum::Bug;
using Fixed = quorum::System<Bug::none, 6>;
using Buggy = quorum::System<Bug::half_quorum, 6>;
using Fixed16 = quorum::System<Bug::none, 16>;
using Buggy16 = quorum::System<Bug::half_quorum, 16>;

// Six replicas, zone r1 r2 r4: the write goes out; the copies for r0 (slot
// 0), r3 (slot 2 of r1 r2 r3 r4 r5) and r5 (slot 3 of r1 r2 r4 r5) arrive,
// which completes a half-quorum write outside the zone; the read starts and
// r1, r2 and r4 answer version 0.
const Trace kHalfQuorum = {Buggy::kWrite,      Buggy::kStore + 0, Buggy::kStore + 2,
                           Buggy::kStore + 3,  Buggy::kRead,      Buggy::kAnswer + 0,
                           Buggy::kAnswer + 1, Buggy::kAnswer + 2};

TEST(Quorum, TheZoneIsHalfTheReplicasAndNotARange) {
  // The answer kinds name the zone's replicas in order: r1 r2 r4 of six,
  // r1 r2 r4 r7 r8 r11 r13 r14 of sixteen.
  Buggy16 sys;
  sys.reset();
  ASSERT_TRUE(sys.apply(Buggy16::kWrite).ok());
  for (std::size_t i = 0; i < 16; ++i) {
    ASSERT_TRUE(sys.apply(Buggy16::kStore).ok());  // every copy, slot 0 first
  }
  ASSERT_TRUE(sys.enabled(Buggy16::kRead));
  ASSERT_TRUE(sys.apply(Buggy16::kRead).ok());
  std::string zone;
  for (ex::Kind k = Buggy16::kAnswer; k < Buggy16::kStore; ++k) zone += sys.describe(k) + "; ";
  EXPECT_EQ(zone,
            "r1 answers version 1; r2 answers version 1; r4 answers version 1; r7 answers version "
            "1; r8 answers version 1; r11 answers version 1; r13 answers version 1; r14 answers "
            "version 1; ");
  EXPECT_EQ(Buggy16::kZone, 8u);
  EXPECT_EQ(Buggy16::kWriteQuorum, 8u);
  EXPECT_EQ(Fixed16::kWriteQuorum, 9u);
}

TEST(Quorum, ExploresEveryWorldOfTheFixedRegister) {
  Fixed sys;
  const ex::ExploreResult r = merilo::testing::explore(
      sys, {.max_states = 100'000, .require_complete = true, .quiet = true});
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.states, 268u);
  EXPECT_EQ(r.depth, 11u);
  EXPECT_EQ(r.tuples.size(), 14u);
}

TEST(Quorum, SeededHalfQuorumIsFoundWithTheShortestTrace) {
  Buggy sys;
  const ex::ExploreResult r = ex::explore(sys, {.max_states = 100'000, .quiet = true});
  ASSERT_EQ(r.violation.kind, ViolationKind::invariant);
  EXPECT_EQ(r.violation.invariant, "a read after a completed write returns it");
  EXPECT_EQ(r.violation.trace, kHalfQuorum);
}

// The 16-replica target's seeding search (fuzz_half_quorum.cpp) completes
// depth 9 — the write has just completed — and stops: the bug is 18 steps
// away. Its seed for "write complete, no replica of the zone holds it" is
// clean with the drain, which stores everywhere before it reads; one more
// choice, the read, placed right after it is the bug.
TEST(Quorum, TheFuzzerNeedsOneChoiceBeyondTheRightSeed) {
  Buggy16 sys;
  const ex::ExploreResult r = ex::explore(sys, {.max_states = 39'204, .quiet = true});
  EXPECT_FALSE(r.violation.found()) << r.violation.summary();
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.depth, 9u);
  EXPECT_EQ(r.tuples.size(), 18u);
  const auto it =
      std::find(r.tuples.begin(), r.tuples.end(), "writer:done reader:idle zone-holds:0/8");
  ASSERT_NE(it, r.tuples.end());
  Trace seed = r.tuple_traces[static_cast<std::size_t>(std::distance(r.tuples.begin(), it))];
  EXPECT_EQ(seed.size(), 9u);

  const fz::Run drained = fz::run(sys, fz::to_fuzz_bytes(sys, seed).bytes, 40);
  EXPECT_TRUE(drained.ok()) << drained.summary();

  seed.push_back(Buggy16::kRead);
  const fz::Run found = fz::run(sys, fz::to_fuzz_bytes(sys, seed).bytes, 40);
  EXPECT_EQ(found.violation.kind, ViolationKind::invariant);
  EXPECT_EQ(found.violation.trace.size(), 18u);  // the read and eight answers from the drain

  // The fixed register cannot complete its write outside the zone, so the
  // same choices are harmless there.
  Fixed16 fixed;
  const fz::Run fixed_run = fz::run(fixed, fz::to_fuzz_bytes(fixed, seed).bytes, 40);
  EXPECT_TRUE(fixed_run.ok()) << fixed_run.summary();
}

TEST(Quorum, TheDrainAloneReadsAfterEveryReplicaStored) {
  Buggy16 sys;
  const fz::Run r = fz::run(sys, {}, 40);
  EXPECT_TRUE(r.ok()) << r.summary();
  EXPECT_EQ(r.trace.size(), 1u + 16u + 1u + 8u);
  EXPECT_EQ(r.trace[17], Buggy16::kRead);
}

// Pinned: fails on the buggy register. (It does not replay on the fixed
// one: there three acknowledgements do not complete the write, so the read
// is not enabled at step 5.)
TEST(Replay, QuorumHalfQuorum) {
  Buggy buggy;
  merilo::testing::expect_replay_finds(buggy, kHalfQuorum, ViolationKind::invariant);
}

}  // namespace
