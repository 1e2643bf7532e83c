// run_test.cpp — running one fuzz input: the choice rule against a live
// system, the swarm mask, the drain, max_depth, and every violation kind.
#include <merilo/fuzz/run.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "fixtures.hpp"

namespace {

namespace fz = merilo::fuzz;
using merilo::explore::Trace;
using merilo::explore::ViolationKind;
using Bytes = std::vector<std::uint8_t>;

TEST(FuzzRun, TakesEachChoiceThatNamesAnEnabledKindAsItIs) {
  fixtures::Recorder sys;
  const fz::Run r = fz::run(sys, Bytes{0x00, 3, 1, 1, 0, 2}, 5);
  EXPECT_TRUE(r.ok()) << r.summary();
  EXPECT_EQ(r.trace, (Trace{3, 1, 1, 0, 2}));
  EXPECT_EQ(r.input_steps, 5u);
  EXPECT_EQ(r.stop, fz::RunEnd::max_depth);
}

TEST(FuzzRun, PicksAmongEnabledKindsByModuloForAnyOtherChoice) {
  fixtures::Recorder sys;
  sys.disabled = 0b0010;  // kind 1 never enabled: candidates {0, 2, 3}
  // 1 -> index 1 -> kind 2; 7 -> 7 % 3 = 1 -> kind 2; 5 -> 2 -> kind 3.
  const fz::Run r = fz::run(sys, Bytes{0x00, 1, 7, 5}, 3);
  EXPECT_EQ(r.trace, (Trace{2, 2, 3}));
}

TEST(FuzzRun, TheSwarmMaskKeepsAKindOutWhileAnotherIsEnabled) {
  fixtures::Recorder sys;
  // Kinds 0 and 2 masked: candidates {1, 3}; 0 -> kind 1, 2 -> 2 % 2 -> 1.
  const fz::Run r = fz::run(sys, Bytes{0b0101, 0, 2, 3, 1}, 4);
  EXPECT_EQ(r.trace, (Trace{1, 1, 3, 1}));
}

TEST(FuzzRun, AMaskHidingEveryEnabledKindIsIgnoredForThatStep) {
  fixtures::Recorder sys;
  sys.disabled = 0b1100;  // only 0 and 1 can be enabled, and both are masked
  const fz::Run r = fz::run(sys, Bytes{0b0011, 1, 0, 5}, 3);
  EXPECT_EQ(r.trace, (Trace{1, 0, 1}));
}

TEST(FuzzRun, TheDrainTakesTheLowestEnabledUnmaskedKindUntilSettled) {
  fixtures::Recorder sys;
  sys.settled_from = 5;  // settled after 5 steps while kinds stay enabled
  const fz::Run r = fz::run(sys, Bytes{0b0001, 3, 2}, 20);
  EXPECT_TRUE(r.ok()) << r.summary();
  // Two steps from the input, then the drain takes kind 1 (0 is masked).
  EXPECT_EQ(r.trace, (Trace{3, 2, 1, 1, 1}));
  EXPECT_EQ(r.input_steps, 2u);
  EXPECT_EQ(r.drained(), 3u);
  EXPECT_EQ(r.stop, fz::RunEnd::settled);
}

TEST(FuzzRun, TheInputsOwnChoicesGoOnPastASettledWorld) {
  fixtures::Recorder sys;
  sys.settled_from = 1;
  const fz::Run r = fz::run(sys, Bytes{0x00, 2, 2, 2}, 20);
  EXPECT_EQ(r.trace, (Trace{2, 2, 2}));
  EXPECT_EQ(r.stop, fz::RunEnd::settled);
  EXPECT_EQ(r.drained(), 0u);
}

TEST(FuzzRun, TheDrainStopsWhenNothingIsEnabledInASettledWorld) {
  fixtures::Recorder sys;
  sys.stop_at = 4;
  const fz::Run r = fz::run(sys, Bytes{}, 20);  // too short even for the mask
  EXPECT_TRUE(r.ok()) << r.summary();
  EXPECT_EQ(r.trace, (Trace{0, 0, 0, 0}));
  EXPECT_EQ(r.input_steps, 0u);
  EXPECT_EQ(r.stop, fz::RunEnd::quiescent);
}

TEST(FuzzRun, MaxDepthBoundsTheWholeRunDrainIncluded) {
  fixtures::Recorder sys;
  const fz::Run drained = fz::run(sys, Bytes{0x00, 1}, 3);
  EXPECT_EQ(drained.trace, (Trace{1, 0, 0}));
  EXPECT_EQ(drained.stop, fz::RunEnd::max_depth);
  const fz::Run cut = fz::run(sys, Bytes{0x00, 1, 2, 3, 1, 2}, 2);
  EXPECT_EQ(cut.trace, (Trace{1, 2}));
  EXPECT_EQ(cut.input_steps, 2u);
}

TEST(FuzzRun, MaxDepthIsRequired) {
  fixtures::Recorder sys;
  const fz::Run r = fz::run(sys, Bytes{0x00, 1}, 0);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.stop, fz::RunEnd::error);
  EXPECT_NE(r.error.find("max_depth is required"), std::string::npos) << r.error;
  EXPECT_TRUE(r.trace.empty());
}

TEST(FuzzRun, ChecksTheInvariantsAfterEveryStep) {
  fixtures::Recorder sys;
  sys.poison = 2;
  const fz::Run r = fz::run(sys, Bytes{0x00, 1, 2, 3}, 10);
  ASSERT_EQ(r.violation.kind, ViolationKind::invariant);
  EXPECT_EQ(r.violation.invariant, "sound");
  EXPECT_EQ(r.violation.trace, (Trace{1, 2}));
  EXPECT_EQ(r.stop, fz::RunEnd::violation);
}

TEST(FuzzRun, ChecksTheInitialWorld) {
  fixtures::Recorder sys;
  sys.broken_initially = true;
  const fz::Run r = fz::run(sys, Bytes{0x00, 1}, 10);
  ASSERT_EQ(r.violation.kind, ViolationKind::invariant);
  EXPECT_TRUE(r.violation.trace.empty());
}

TEST(FuzzRun, FindsABrokenInvariantInTheDrain) {
  fixtures::Recorder sys;
  sys.disabled = 0b0001;  // the drain takes kind 1
  sys.poison = 1;
  const fz::Run r = fz::run(sys, Bytes{0x00, 3}, 10);
  ASSERT_EQ(r.violation.kind, ViolationKind::invariant);
  EXPECT_EQ(r.violation.trace, (Trace{3, 1}));
  EXPECT_EQ(r.input_steps, 1u);
}

TEST(FuzzRun, ReportsADeadlockWhenNothingIsEnabledAndTheSystemIsNotSettled) {
  fixtures::Recorder sys;
  sys.stop_at = 2;
  sys.never_settles = true;
  const fz::Run r = fz::run(sys, Bytes{0x00, 3}, 10);
  ASSERT_EQ(r.violation.kind, ViolationKind::deadlock);
  EXPECT_EQ(r.violation.trace, (Trace{3, 0}));
}

TEST(FuzzRun, ReportsApplyErrorsAndModeChangesOnTheStepThatFailed) {
  fixtures::Recorder sys;
  sys.failing = 2;
  sys.mode_changing = 3;
  const fz::Run failed = fz::run(sys, Bytes{0x00, 1, 2}, 10);
  EXPECT_EQ(failed.violation.kind, ViolationKind::apply_error);
  EXPECT_EQ(failed.violation.trace, (Trace{1, 2}));
  EXPECT_EQ(failed.violation.detail, "refused");
  const fz::Run moded = fz::run(sys, Bytes{0x00, 3}, 10);
  EXPECT_EQ(moded.violation.kind, ViolationKind::mode_change);
  EXPECT_EQ(moded.violation.trace, (Trace{3}));
}

TEST(FuzzRun, ReportsAnExceptionFromTheAdapterAsACrash) {
  fixtures::Recorder sys;
  sys.throwing = 1;
  const fz::Run r = fz::run(sys, Bytes{0x00, 0, 1}, 10);
  ASSERT_EQ(r.violation.kind, ViolationKind::crash);
  // The trace ends with the step that threw, as the explorer's does, so it
  // replays to the same crash (it used to stop one step short).
  EXPECT_EQ(r.violation.trace, (Trace{0, 1}));
  EXPECT_EQ(r.trace, (Trace{0, 1}));
  EXPECT_EQ(r.input_steps, 2u);
  EXPECT_NE(r.violation.detail.find("escaped apply"), std::string::npos) << r.violation.detail;
  EXPECT_NE(r.violation.detail.find("boom"), std::string::npos) << r.violation.detail;
}

TEST(FuzzRun, RefusesReEntryFromAnAdapterCallback) {
  fixtures::Recorder sys;
  sys.reenters = true;
  const fz::Run r = fz::run(sys, Bytes{0x00, 0}, 1);
  EXPECT_TRUE(r.ok()) << r.summary();
  EXPECT_EQ(sys.inner_.stop, fz::RunEnd::error);
  EXPECT_NE(sys.inner_.error.find("refused re-entry"), std::string::npos) << sys.inner_.error;
}

TEST(FuzzRun, ARunnerGivesTheSameRunForTheSameInputEveryTime) {
  fixtures::Recorder sys;
  sys.settled_from = 6;
  fz::Runner<fixtures::Recorder> runner(sys, 9);
  const Bytes in = {0b0100, 7, 2, 200, 1};
  const fz::Run first = runner.run(in);
  for (int i = 0; i < 3; ++i) {
    const fz::Run again = runner.run(in);
    EXPECT_EQ(again.trace, first.trace);
    EXPECT_EQ(again.input_steps, first.input_steps);
    EXPECT_EQ(again.stop, first.stop);
  }
}

TEST(FuzzRun, EveryStepAsksEveryKindWhetherItIsEnabled) {
  // On purpose (docs/design/fuzz-speed.md): under libFuzzer the answers are
  // coverage of the world's state. Three steps and the max_depth check,
  // four kinds each.
  fixtures::Recorder sys;
  fz::Runner<fixtures::Recorder> runner(sys, 3);
  (void)runner.run(Bytes{0x00, 3, 2, 1});
  EXPECT_EQ(sys.enabled_calls, 4u * 4u);
}

TEST(FuzzRun, DescribeSaysWhereTheStepsCameFromAndWhyItStopped) {
  fixtures::Recorder sys;
  sys.stop_at = 3;
  const fz::Run r = fz::run(sys, Bytes{0x00, 2}, 10);
  EXPECT_EQ(r.summary(), "ok: 3 steps (1 from the input, 2 drained), stopped: quiescent");
}

}  // namespace
