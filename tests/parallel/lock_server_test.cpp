// lock_server_test.cpp — the lock service raced against the lock-server
// machine through the fsm bridge (examples/mutex/parallel.hpp): the real
// holder is linearizable; the racy holder grants one lock to two clients,
// found with the default settings and shrunk to two requests.
#include <gtest/gtest.h>

#include <merilo/parallel/gtest.hpp>
#include <merilo/parallel/machine.hpp>
#include <merilo/parallel/parallel.hpp>
#include <mutex/parallel.hpp>

namespace {

namespace parallel = merilo::parallel;
using mutex::LockBinding;

TEST(LockServerParallel, TheRealHolderIsLinearizableAgainstTheServerMachine) {
  merilo::testing::parallel_check(parallel::machine_spec(LockBinding<mutex::LockService<>>{}),
                                  {.seed = 1});
}

TEST(LockServerParallel, TheRacyHolderGrantsOneLockTwiceAndShrinksToTwoRequests) {
  const auto r =
      parallel::check(parallel::machine_spec(LockBinding<mutex::RacyLockService>{}), {.seed = 1});
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(r.failure.has_value()) << "the racy holder was not caught";
  const auto& f = *r.failure;
  EXPECT_EQ(f.violation.tag, parallel::kNotLinearizableTag) << parallel::report(f);
  // Observed: the prefix shrinks away and one fresh acquire per branch, by
  // two different clients, is left; both are granted.
  EXPECT_TRUE(f.shrunk.prefix.empty()) << parallel::report(f);
  ASSERT_EQ(f.shrunk.branches.size(), 2U) << parallel::report(f);
  ASSERT_EQ(f.shrunk.branches[0].size(), 1U) << parallel::report(f);
  ASSERT_EQ(f.shrunk.branches[1].size(), 1U) << parallel::report(f);
  const mutex::Request a = f.shrunk.branches[0][0].event;
  const mutex::Request b = f.shrunk.branches[1][0].event;
  EXPECT_EQ(a.op, mutex::Op::acquire);
  EXPECT_EQ(b.op, mutex::Op::acquire);
  EXPECT_NE(a.client, b.client);
  ASSERT_EQ(f.histories.size(), 2U);
  EXPECT_EQ(f.histories[0][0].response, mutex::Reply::granted);
  EXPECT_EQ(f.histories[1][0].response, mutex::Reply::granted);
}

}  // namespace
