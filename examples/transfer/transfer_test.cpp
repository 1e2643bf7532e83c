// transfer_test.cpp — the controlled scheduler finds the lock-order
// deadlock at every seed with the default settings, reports it as
// parallel.deadlock naming who holds which mutex, and shrinks it to one
// transfer each way; the pin replays it; the bank that locks in a fixed
// order passes every schedule of up to two preemptions.
#include <cstddef>
#include <string>

#include <gtest/gtest.h>

#include <common/controlled_check.hpp>
#include <merilo/parallel/parallel.hpp>
#include <transfer/spec.hpp>

namespace {

namespace parallel = merilo::parallel;
using transfer::Op;

TEST(TransferParallel, FixedOrderBankPassesEveryScheduleOfTwoPreemptions) {
  // 35 cases, not the default 100: every schedule of up to two preemptions
  // of 100 cases took about 28 s on a loaded two-core machine.
  examples::expect_fixed_twin_passes(transfer::Spec<transfer::Bug::none>{}, 35);
}

TEST(TransferParallel, FindsTheLockOrderDeadlockAtEverySeedAndShrinksItToOneTransferEachWay) {
  const std::size_t least = examples::expect_found_at_every_seed(
      transfer::Spec<transfer::Bug::lock_order>{}, parallel::kDeadlockTag, [](const auto& f) {
        // Who holds what: each branch holds one account's mutex and waits
        // for the other's.
        EXPECT_NE(f.violation.detail.find("held by branch"), std::string::npos)
            << f.violation.detail;
        EXPECT_FALSE(f.system_left_alive);  // the blocked branches were cancelled and unwound
        // One preemption: a transfer is switched out holding its first
        // mutex, and the opposite one takes the other.
        EXPECT_EQ(f.scheduling.preemptions, 1U) << parallel::report(f);
        const parallel::Case<Op> one_way{.prefix = {},
                                         .branches = {{Op::move_0_to_1}, {Op::move_1_to_0}}};
        const parallel::Case<Op> other_way{.prefix = {},
                                           .branches = {{Op::move_1_to_0}, {Op::move_0_to_1}}};
        EXPECT_TRUE(f.shrunk == one_way || f.shrunk == other_way) << parallel::report(f);
        return f.shrunk == one_way || f.shrunk == other_way;
      });
  EXPECT_EQ(least, examples::kSeeds);
}

}  // namespace
