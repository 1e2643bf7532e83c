// lock_server_test.cpp — the lock service raced against the lock-server
// machine through the fsm bridge (examples/mutex/parallel.hpp), under the
// controlled scheduler: the real holder (with a merilo::sync::mutex, its
// template parameter) passes every schedule of up to two preemptions; the
// racy holder grants one lock twice, found at every seed with the default
// settings and shrunk to two acquires.
#include <gtest/gtest.h>

#include <common/controlled_check.hpp>
#include <merilo/parallel/machine.hpp>
#include <merilo/parallel/parallel.hpp>
#include <mutex/parallel.hpp>

namespace {

namespace parallel = merilo::parallel;
using mutex::LockBinding;

TEST(LockServerParallel, TheRealHolderPassesEveryScheduleOfTwoPreemptions) {
  examples::expect_fixed_twin_passes(
      parallel::machine_spec(LockBinding<mutex::ControlledLockService>{}));
}

TEST(LockServerParallel, TheRacyHolderGrantsOneLockTwiceAtEverySeedAndShrinksToTwoAcquires) {
  examples::expect_found_at_every_seed(
      parallel::machine_spec(LockBinding<mutex::RacyLockService>{}),
      parallel::kNotLinearizableTag, [](const auto& f) {
        // Nothing but one acquire per branch, by two clients, both granted.
        EXPECT_TRUE(f.shrunk.prefix.empty()) << parallel::report(f);
        ASSERT_EQ(f.shrunk.branches.size(), 2U) << parallel::report(f);
        ASSERT_EQ(f.shrunk.branches[0].size(), 1U) << parallel::report(f);
        ASSERT_EQ(f.shrunk.branches[1].size(), 1U) << parallel::report(f);
        const mutex::Request a = f.shrunk.branches[0][0].event;
        const mutex::Request b = f.shrunk.branches[1][0].event;
        EXPECT_EQ(a.op, mutex::Op::acquire) << parallel::report(f);
        EXPECT_EQ(b.op, mutex::Op::acquire) << parallel::report(f);
        EXPECT_NE(a.client, b.client) << parallel::report(f);
        EXPECT_EQ(f.scheduling.preemptions, 1U) << parallel::report(f);
        ASSERT_EQ(f.histories.size(), 2U);
        EXPECT_EQ(f.histories[0][0].response, mutex::Reply::granted);
        EXPECT_EQ(f.histories[1][0].response, mutex::Reply::granted);
      });
}

}  // namespace
