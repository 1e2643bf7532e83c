// controlled_test.cpp — the controlled scheduler: races found by search and
// shrunk to the least case, schedules in order of preemption count, pinned
// schedules that replay exactly, deadlock, livelock and stuck-thread
// verdicts, nondeterminism, and the free fallback for std-only systems.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include <merilo/parallel/parallel.hpp>
#include <merilo/sync/sync.hpp>

#include "controlled_systems.hpp"
#include "probe.hpp"

namespace {

namespace parallel = merilo::parallel;
namespace sync = merilo::sync;
using controlled::Op;

bool least_two_calls(const parallel::Case<Op>& c) {
  return c.prefix.empty() && c.branches.size() == 2 && c.branches[0].size() == 1 &&
         c.branches[1].size() == 1;
}

TEST(SyncTypes, OutsideAControlledRunTheyAreTheStdOperations) {
  sync::atomic<int> a{1};
  EXPECT_EQ(a.fetch_add(2), 1);
  EXPECT_EQ(++a, 4);
  int expected = 4;
  EXPECT_TRUE(a.compare_exchange_strong(expected, 9));
  EXPECT_EQ(a.exchange(3), 9);
  EXPECT_EQ(static_cast<int>(a), 3);
  sync::atomic<int*> p{nullptr};
  int xs[2] = {0, 0};
  p = xs;
  EXPECT_EQ(p.fetch_add(1), xs);
  EXPECT_EQ(p.load(), xs + 1);
  sync::mutex m;
  EXPECT_TRUE(m.try_lock());
  m.unlock();
  sync::shared_mutex sm;
  sm.lock_shared();
  EXPECT_TRUE(sm.try_lock_shared());
  sm.unlock_shared();
  sm.unlock_shared();
  sync::recursive_mutex rm;
  rm.lock();
  EXPECT_TRUE(rm.try_lock());
  rm.unlock();
  rm.unlock();
  sync::condition_variable cv;
  std::unique_lock lock(m);
  EXPECT_EQ(cv.wait_for(lock, std::chrono::microseconds(1)), std::cv_status::timeout);
  std::atomic<bool> woke{false};
  bool ready = false;
  std::thread t([&] {
    {
      std::lock_guard g(m);
      ready = true;
    }
    cv.notify_one();
  });
  cv.wait(lock, [&] { return ready; });
  lock.unlock();
  t.join();
  EXPECT_TRUE(ready);
  (void)woke;
}

TEST(Controlled, TheLostUpdateIsFoundInEverySeedAndShrunkToTwoIncrements) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto r = parallel::check(controlled::CounterSpec{.racy = true}, {.seed = seed});
    ASSERT_TRUE(r.failure.has_value()) << "seed " << seed;
    const auto& f = *r.failure;
    EXPECT_EQ(f.violation.tag, parallel::kNotLinearizableTag) << parallel::report(f);
    EXPECT_EQ(f.scheduling.scheduler, parallel::Scheduler::preemption_bounded);
    EXPECT_TRUE(least_two_calls(f.shrunk)) << parallel::report(f);
    EXPECT_EQ(f.scheduling.preemptions, 1U) << parallel::report(f);
    EXPECT_EQ(f.scheduling.rounds_done, 1U);  // every schedule with 0 preemptions passed
    EXPECT_EQ(f.histories[0][0].response, f.histories[1][0].response);
  }
}

TEST(Controlled, TheReportShowsTheScheduleTheSwitchesAndAReplayLine) {
  const auto r = parallel::check(controlled::CounterSpec{.racy = true}, {.seed = 3});
  ASSERT_TRUE(r.failure.has_value());
  const std::string text = parallel::report(*r.failure);
  EXPECT_NE(text.find("scheduling: controlled, by preemption bound"), std::string::npos) << text;
  EXPECT_NE(text.find("every schedule with <= 0 preemption(s) passed"), std::string::npos) << text;
  EXPECT_NE(text.find("schedule: ["), std::string::npos) << text;
  EXPECT_NE(text.find("(preempted), before atomic store"), std::string::npos) << text;
  EXPECT_NE(text.find("merilo::parallel::replay(spec, \"p2:3:"), std::string::npos) << text;
}

TEST(Controlled, APinnedScheduleReplaysBitForBit) {
  const auto r = parallel::check(controlled::CounterSpec{.racy = true}, {.seed = 5});
  ASSERT_TRUE(r.failure.has_value());
  const std::string token = parallel::pin_token(*r.failure);
  for (int k = 0; k < 20; ++k) {
    const auto again = parallel::replay(controlled::CounterSpec{.racy = true}, token);
    ASSERT_TRUE(again.error.empty()) << again.error;
    ASSERT_TRUE(again.failure.has_value());
    EXPECT_EQ(parallel::pin_token(*again.failure), token);
    EXPECT_EQ(again.failure->shrunk, r.failure->shrunk);
    ASSERT_EQ(again.failure->histories.size(), r.failure->histories.size());
    for (std::size_t b = 0; b < r.failure->histories.size(); ++b) {
      ASSERT_EQ(again.failure->histories[b].size(), r.failure->histories[b].size());
      for (std::size_t i = 0; i < r.failure->histories[b].size(); ++i) {
        const auto& x = again.failure->histories[b][i];
        const auto& y = r.failure->histories[b][i];
        EXPECT_EQ(x.response, y.response);
        EXPECT_EQ(x.invoked_at, y.invoked_at);
        EXPECT_EQ(x.returned_at, y.returned_at);
      }
    }
  }
  // The fixed counter passes the same pin.
  const auto fixed = parallel::replay(controlled::CounterSpec{.racy = false}, token);
  EXPECT_TRUE(fixed.ok()) << (fixed.failure ? parallel::report(*fixed.failure) : fixed.error);
}

TEST(Controlled, AMalformedOrStalePinIsAUsageError) {
  const controlled::CounterSpec spec{.racy = true};
  for (const char* bad :
       {"", "p1", "p1:1:0:2:6:4::0/1", "p2:1:0:2:6:4::0/1:01", "p1:x:0:2:6:4::0/1:01",
        "p1:1:0:9:6:4::0/1:01", "p1:1:0:2:6:4::0/1:05", "p1:1:0:2:6:4::0.a/1:01",
        "p1:1:0:2:6:4::0//1:01", "p1:1:0:2:6:4::0/1/2/3:01", "p1:1:0:2:6:99::0/1:01"}) {
    const auto r = parallel::replay(spec, bad);
    EXPECT_FALSE(r.error.empty()) << bad;
    EXPECT_FALSE(r.failure.has_value()) << bad;
  }
  // Positions past the case the run draws.
  const auto r = parallel::replay(spec, "p2:1:0:2:0:1::0/60000:01:0123456789abcdef");
  EXPECT_NE(r.error.find("does not rebuild the case it was made for"), std::string::npos)
      << r.error;
}

TEST(Controlled, TheFixedCounterPassesWithEveryScheduleOfTwoPreemptionsChecked) {
  const auto r =
      parallel::check(controlled::CounterSpec{.racy = false}, {.seed = 1, .test_count = 20});
  ASSERT_TRUE(r.ok()) << (r.failure ? parallel::report(*r.failure) : r.error);
  EXPECT_EQ(r.bounded_cases, 20U);
  EXPECT_EQ(r.rounds_done, 3U);  // bounds 0, 1 and 2 complete in every case
  EXPECT_EQ(r.free_cases, 0U);
  EXPECT_GT(r.schedules, 20U);
}

TEST(Controlled, ALockOrderDeadlockIsAVerdictWithWhoHoldsWhat) {
  const auto r = parallel::check(controlled::AccountsSpec{.ordered = false}, {.seed = 1});
  ASSERT_TRUE(r.failure.has_value());
  const auto& f = *r.failure;
  EXPECT_EQ(f.violation.tag, parallel::kDeadlockTag) << parallel::report(f);
  EXPECT_NE(f.violation.detail.find("held by branch"), std::string::npos) << f.violation.detail;
  EXPECT_FALSE(f.system_left_alive);  // the blocked threads were cancelled, not abandoned
  EXPECT_EQ(f.scheduling.preemptions, 1U);
  ASSERT_EQ(f.shrunk.branches.size(), 2U);
  EXPECT_EQ(f.shrunk.branches[0].size() + f.shrunk.branches[1].size(), 2U) << parallel::report(f);
  // The pin replays the deadlock.
  const auto again = parallel::replay(controlled::AccountsSpec{.ordered = false}, pin_token(f));
  ASSERT_TRUE(again.failure.has_value());
  EXPECT_EQ(again.failure->violation.tag, parallel::kDeadlockTag);
  EXPECT_TRUE(parallel::check(controlled::AccountsSpec{.ordered = true}, {.seed = 1}).ok());
}

TEST(Controlled, WaitsPassWhetherTheySpinYieldOrBlock) {
  for (auto wait :
       {controlled::Wait::spin, controlled::Wait::spin_yield, controlled::Wait::condition}) {
    const auto r = parallel::check(controlled::MeetSpec{.wait = wait},
                                   {.seed = 1, .test_count = 5, .max_prefix = 0, .max_branch = 1});
    EXPECT_TRUE(r.ok()) << static_cast<int>(wait) << ": "
                        << (r.failure ? parallel::report(*r.failure) : r.error);
  }
}

TEST(Controlled, ALostNotifyIsADeadlock) {
  const auto r = parallel::check(
      controlled::MeetSpec{.wait = controlled::Wait::condition, .lose_notify = true},
      {.seed = 1, .test_count = 5, .max_prefix = 0, .max_branch = 1});
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->violation.tag, parallel::kDeadlockTag) << parallel::report(*r.failure);
  EXPECT_NE(r.failure->violation.detail.find("condition_variable wait"), std::string::npos);
}

TEST(Controlled, ASpinThatNeverEndsIsALivelock) {
  // Both branches wait for a third arrival that never comes.
  const auto r = parallel::check(
      controlled::MeetSpec{.wait = controlled::Wait::spin_yield, .need = 3},
      {.seed = 1, .test_count = 5, .max_prefix = 0, .max_branch = 1, .max_steps = 2000});
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->violation.tag, parallel::kLivelockTag) << parallel::report(*r.failure);
  EXPECT_NE(r.failure->violation.detail.find("2000 scheduling points"), std::string::npos);
}

TEST(Controlled, ATornSeqlockReadIsFoundAndItsFixPasses) {
  const auto r = parallel::check(controlled::SeqSpec{.torn = true}, {.seed = 1, .test_count = 20});
  ASSERT_TRUE(r.failure.has_value());
  const auto& f = *r.failure;
  EXPECT_EQ(f.violation.tag, parallel::kNotLinearizableTag) << parallel::report(f);
  EXPECT_EQ(f.scheduling.preemptions, 1U) << parallel::report(f);
  EXPECT_EQ(f.scheduling.rounds_done, 1U);  // no schedule without a preemption fails
  const auto ok =
      parallel::check(controlled::SeqSpec{.torn = false}, {.seed = 1, .test_count = 20});
  EXPECT_TRUE(ok.ok()) << (ok.failure ? parallel::report(*ok.failure) : ok.error);
}

TEST(Controlled, ABoundOfZeroPreemptionsMissesTheLostUpdateAndSaysWhatItChecked) {
  const auto r = parallel::check(controlled::CounterSpec{.racy = true},
                                 {.seed = 1, .test_count = 10, .preemption_bound = 0});
  EXPECT_TRUE(r.ok()) << (r.failure ? parallel::report(*r.failure) : r.error);
  EXPECT_EQ(r.bounded_cases, 10U);
  EXPECT_EQ(r.rounds_done, 1U);  // every schedule with 0 preemptions, in every case
}

TEST(Controlled, ThreeTakersOfTwoPermitsAreFoundWithOnePreemption) {
  // The third taker is free to go once the second finished: one preemption
  // (the first taker's, between its read and its add) is enough.
  const auto r = parallel::check(
      controlled::PermitSpec{},
      {.seed = 1, .branches = 3, .max_prefix = 0, .max_branch = 1, .max_shrinks = 0});
  ASSERT_TRUE(r.failure.has_value());
  const auto& f = *r.failure;
  EXPECT_EQ(f.violation.tag, parallel::kNotLinearizableTag) << parallel::report(f);
  EXPECT_EQ(f.scheduling.preemptions, 1U) << parallel::report(f);
  EXPECT_EQ(f.scheduling.rounds_done, 1U) << parallel::report(f);
}

TEST(Controlled, ADoubleInsertIsFoundAndShrunkToTwoInsertsOfOneValue) {
  const auto r = parallel::check(controlled::SetSpec{.racy = true}, {.seed = 1});
  ASSERT_TRUE(r.failure.has_value());
  const auto& f = *r.failure;
  EXPECT_EQ(f.violation.tag, parallel::kNotLinearizableTag) << parallel::report(f);
  ASSERT_EQ(f.shrunk.branches.size(), 2U) << parallel::report(f);
  EXPECT_TRUE(f.shrunk.prefix.empty()) << parallel::report(f);
  EXPECT_EQ(f.shrunk.branches[0].size() + f.shrunk.branches[1].size(), 2U) << parallel::report(f);
  EXPECT_EQ(f.shrunk.branches[0][0], f.shrunk.branches[1][0]) << parallel::report(f);
  EXPECT_TRUE(
      parallel::check(controlled::SetSpec{.racy = false}, {.seed = 1, .test_count = 20}).ok());
}

TEST(Controlled, AQueueOverCapacityIsFoundWithThreeCalls) {
  const auto r = parallel::check(controlled::QueueSpec{.racy = true}, {.seed = 1});
  ASSERT_TRUE(r.failure.has_value());
  const auto& f = *r.failure;
  EXPECT_EQ(f.violation.tag, parallel::kNotLinearizableTag) << parallel::report(f);
  std::size_t calls = f.shrunk.prefix.size();
  for (const auto& b : f.shrunk.branches) calls += b.size();
  EXPECT_EQ(calls, 3U) << parallel::report(f);  // one push to fill a slot, two racing for the last
  EXPECT_TRUE(
      parallel::check(controlled::QueueSpec{.racy = false}, {.seed = 1, .test_count = 20}).ok());
}

TEST(Controlled, PctAndRandomSchedulersFindTheLostUpdate) {
  for (auto s : {parallel::Scheduler::pct, parallel::Scheduler::random}) {
    const auto r = parallel::check(controlled::CounterSpec{.racy = true},
                                   {.seed = 2, .scheduler = s, .schedules = 200});
    ASSERT_TRUE(r.failure.has_value()) << name(s);
    EXPECT_EQ(r.failure->scheduling.scheduler, s);
    EXPECT_TRUE(least_two_calls(r.failure->shrunk)) << parallel::report(*r.failure);
    const auto again =
        parallel::replay(controlled::CounterSpec{.racy = true}, parallel::pin_token(*r.failure));
    EXPECT_TRUE(again.failure.has_value()) << name(s);
  }
}

TEST(Controlled, AThreadThatReachesNoPointTimesOutNamingItsBranch) {
  probe::Spec spec;
  auto release = std::make_shared<std::atomic<bool>>(false);
  const auto main = std::this_thread::get_id();
  spec.hooks->in_run = [release, main](probe::Op) {
    if (std::this_thread::get_id() == main) return;
    while (!release->load()) std::this_thread::yield();  // no merilo::sync operation
  };
  const auto r = parallel::check(spec, {.seed = 1,
                                        .max_shrinks = 0,
                                        .scheduler = parallel::Scheduler::preemption_bounded,
                                        .deadline = std::chrono::milliseconds(50)});
  release->store(true);
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->violation.tag, parallel::kTimeoutTag);
  EXPECT_NE(r.failure->violation.detail.find("reached no scheduling point"), std::string::npos)
      << r.failure->violation.detail;
}

TEST(Controlled, TheSameScheduleMeetingOtherPointsIsNondeterminism) {
  const auto r = parallel::check(controlled::FlakySpec{}, {.seed = 1});
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->violation.tag, parallel::kNondeterministicTag)
      << parallel::report(*r.failure);
}

TEST(Controlled, AutomaticRunsAStdOnlySystemUnderStress) {
  const auto r = parallel::check(probe::Spec{}, {.seed = 1, .test_count = 10});
  ASSERT_TRUE(r.ok()) << (r.failure ? parallel::report(*r.failure) : r.error);
  EXPECT_EQ(r.free_cases, 10U);
  EXPECT_EQ(r.bounded_cases, 0U);
  EXPECT_EQ(r.schedules, 0U);
  // Each case ran for stress_time, at least repeat = 3 executions (the
  // probing controlled execution included).
  EXPECT_GE(r.executions, 30U);
  const auto none = parallel::check(
      probe::Spec{}, {.seed = 1, .test_count = 10, .stress_time = std::chrono::nanoseconds(0)});
  EXPECT_EQ(none.executions, 30U);
}

TEST(Controlled, TheSearchDoesNotDependOnTheMachine) {
  // Two checks of one seed give the same failure, schedule and pin.
  const auto a = parallel::check(controlled::SeqSpec{.torn = true}, {.seed = 9, .test_count = 10});
  const auto b = parallel::check(controlled::SeqSpec{.torn = true}, {.seed = 9, .test_count = 10});
  ASSERT_TRUE(a.failure && b.failure);
  EXPECT_EQ(parallel::pin_token(*a.failure), parallel::pin_token(*b.failure));
  EXPECT_EQ(a.executions, b.executions);
  EXPECT_EQ(parallel::report(*a.failure), parallel::report(*b.failure));
}

}  // namespace
