// The threads examples under sync::model: the default search finds each
// seeded bug and names it, the fixed twin passes with every execution
// checked, and the failure's pin replays it.
#include <array>
#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include <threads/chase_lev.hpp>
#include <threads/lazy_init.hpp>
#include <threads/lock_order.hpp>
#include <threads/peterson.hpp>
#include <threads/seqlock.hpp>
#include <threads/spsc_ring.hpp>
#include <threads/turn_taking.hpp>

namespace {

namespace ms = merilo::sync;
using Body = void (*)();

/// `seeded` fails under the default search with `tag`, its report names
/// `names`, and its pin replays the same failure; returns the failure.
ms::ModelFailure expect_found_and_replayed(Body seeded, std::string_view tag,
                                           std::string_view names) {
  const ms::ModelResult r = ms::model(seeded);
  EXPECT_TRUE(r.error.empty()) << r.error;
  if (!r.failure) {
    ADD_FAILURE() << "the seeded bug was not found: " << r.summary();
    return {};
  }
  EXPECT_EQ(r.failure->tag, tag) << r.report();
  EXPECT_NE(r.report().find(names), std::string::npos)
      << "the report should name " << names << ":\n"
      << r.report();
  EXPECT_NE(r.report().find("options.replay = \"" + r.failure->pin + "\""), std::string::npos)
      << r.report();
  ms::ModelOptions pinned;
  pinned.replay = r.failure->pin;
  const ms::ModelResult again = ms::model(pinned, seeded);
  EXPECT_EQ(again.executions, 1U);
  if (!again.failure) {
    ADD_FAILURE() << "the pin did not replay the failure: " << again.report();
    return *r.failure;
  }
  EXPECT_EQ(again.failure->tag, tag);
  EXPECT_EQ(again.failure->pin, r.failure->pin);
  EXPECT_EQ(again.failure->timeline, r.failure->timeline);
  return *r.failure;
}

/// `fixed` passes the default search, which checked every execution.
void expect_passes_completely(Body fixed) {
  const ms::ModelResult r = ms::model(fixed);
  EXPECT_TRUE(r.passed()) << r.report();
  EXPECT_TRUE(r.complete) << r.summary();
}

/// `seeded` passes when atomics are sequentially consistent: its bug is
/// one of memory order, not of interleaving.
void expect_passes_under_sequential_consistency(Body seeded) {
  ms::ModelOptions sc;
  sc.memory_model = false;
  const ms::ModelResult r = ms::model(sc, seeded);
  EXPECT_TRUE(r.passed()) << r.report();
  EXPECT_TRUE(r.complete) << r.summary();
}

TEST(LazyInit, ARelaxedPointerLetsAReaderSeeTheObjectUnbuilt) {
  const ms::ModelFailure f =
      expect_found_and_replayed(threads::lazy_init_body<false>, ms::kAssertionTag,
                                "c.port.load(std::memory_order_relaxed) == 8080");
  EXPECT_NE(f.memory.find("reads-from"), std::string::npos) << f.memory;
}

TEST(LazyInit, AReleaseStoreAndAnAcquireLoadPublishTheObjectWhole) {
  expect_passes_completely(threads::lazy_init_body<true>);
}

TEST(LazyInit, TheRelaxedPointerIsOnlyWrongUnderTheMemoryModel) {
  expect_passes_under_sequential_consistency(threads::lazy_init_body<false>);
}

TEST(SpscRing, ARelaxedTailLetsTheConsumerReadAStaleSlot) {
  expect_found_and_replayed(threads::spsc_ring_body<false>, ms::kAssertionTag, "*got == expected");
}

TEST(SpscRing, AReleaseTailAndAnAcquireLoadOfItPass) {
  expect_passes_completely(threads::spsc_ring_body<true>);
}

TEST(SpscRing, TheRelaxedTailIsOnlyWrongUnderTheMemoryModel) {
  expect_passes_under_sequential_consistency(threads::spsc_ring_body<false>);
}

TEST(Peterson, ReleaseAndAcquireLetBothThreadsIn) {
  expect_found_and_replayed(threads::peterson_body<false>, ms::kAssertionTag,
                            "inside.fetch_add(1, std::memory_order_relaxed) == 0");
}

TEST(Peterson, SeqCstKeepsMutualExclusion) {
  expect_passes_completely(threads::peterson_body<true>);
}

TEST(Peterson, ReleaseAndAcquireAreOnlyWrongUnderTheMemoryModel) {
  expect_passes_under_sequential_consistency(threads::peterson_body<false>);
}

TEST(SeqLock, AReaderWithoutTheAcquireFenceKeepsATornCopy) {
  expect_found_and_replayed(threads::seqlock_body<false>, ms::kAssertionTag,
                            "copy->first == copy->second");
}

TEST(SeqLock, TheFencedReaderNeverKeepsATornCopy) {
  expect_passes_completely(threads::seqlock_body<true>);
}

TEST(SeqLock, TheMissingFenceIsOnlyWrongUnderTheMemoryModel) {
  expect_passes_under_sequential_consistency(threads::seqlock_body<false>);
}

TEST(LockOrder, OppositeLockOrdersDeadlockAfterOnePreemption) {
  const ms::ModelFailure f = expect_found_and_replayed(threads::lock_order_body<false>,
                                                       ms::kDeadlockTag, "waits to lock mutex");
  EXPECT_EQ(f.preemptions, 1U) << f.timeline;
}

TEST(LockOrder, OneGlobalLockOrderNeverDeadlocks) {
  expect_passes_completely(threads::lock_order_body<true>);
}

TEST(TurnTaking, ThePerfectAlternationIsFoundWithExactlyThreePreemptions) {
  const ms::ModelFailure f = expect_found_and_replayed(threads::turn_taking_body<false>,
                                                       ms::kAssertionTag, "moves_ < kLogSize");
  EXPECT_EQ(f.preemptions, 3U) << f.timeline;
}

TEST(TurnTaking, NoScheduleOfAtMostTwoPreemptionsOverflowsTheLog) {
  ms::ModelOptions two;
  two.search = ms::Search::bounded;
  two.preemptions = 2;
  const ms::ModelResult r = ms::model(two, threads::turn_taking_body<false>);
  EXPECT_TRUE(r.passed()) << r.report();
  EXPECT_TRUE(r.complete) << r.summary();
  two.preemptions = 3;
  EXPECT_FALSE(ms::model(two, threads::turn_taking_body<false>).passed());
}

TEST(TurnTaking, CheckingForRoomInTheSameStepNeverOverflows) {
  expect_passes_completely(threads::turn_taking_body<true>);
}

TEST(ChaseLev, ATakeWithoutItsFenceAndAStealTakeTheSameItem) {
  expect_found_and_replayed(threads::chase_lev_body<false>, ms::kAssertionTag,
                            "got[1] <= 1 && got[2] <= 1");
}

TEST(ChaseLev, SeqCstFencesOnBothSidesNeverGiveAnItemTwice) {
  expect_passes_completely(threads::chase_lev_body<true>);
}

TEST(ChaseLev, TheMissingFenceIsOnlyWrongUnderTheMemoryModel) {
  expect_passes_under_sequential_consistency(threads::chase_lev_body<false>);
}

/// Four philosophers, each taking its left fork, then its right: the body
/// is philosopher 0 and starts the other three.
void four_philosophers() {
  std::array<ms::mutex, 4> forks;
  const auto dine = [&forks](std::size_t i) {
    const std::lock_guard left(forks[i]);
    const std::lock_guard right(forks[(i + 1) % 4]);
  };
  ms::thread one([&] { dine(1); });
  ms::thread two([&] { dine(2); });
  ms::thread three([&] { dine(3); });
  dine(0);
  one.join();
  two.join();
  three.join();
}

TEST(Model, TheSimplerSearchAfterADeadlockReportsARealDeadlockEveryTime) {
  // A regression test: a thread still unwinding from a deadlocked execution
  // used to unlock through the run after it was freed, so under load the
  // next executions reported a bogus deadlock ("thread 0 never started"),
  // a double unlock, or hung. An execution now ends only when every thread
  // of it has left.
  for (int i = 0; i < 30; ++i) {
    const ms::ModelResult r = ms::model(four_philosophers);
    ASSERT_TRUE(r.failure) << r.summary();
    EXPECT_EQ(r.failure->tag, ms::kDeadlockTag);
    EXPECT_NE(r.failure->message.find("waits to lock mutex"), std::string::npos) << r.report();
    EXPECT_NE(r.failure->pin, "m1:") << r.report();
  }
}

}  // namespace
