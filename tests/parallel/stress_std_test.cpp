// stress_std_test.cpp — stress mode on components written with std
// primitives only (std_systems.hpp): the four seeded shapes are found at
// the defaults, and no correct component is ever reported: the fixed twins,
// a std::mutex-guarded std::deque, oneTBB's concurrent_queue and
// moodycamel's ConcurrentQueue (behind examples/concurrent_queue's
// mailbox), when those are installed.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include <merilo/parallel/parallel.hpp>

#include "std_systems.hpp"

#if defined(MERILO_HAVE_TBB)
#include <tbb/concurrent_queue.h>
#endif
#if defined(MERILO_HAVE_CONCURRENTQUEUE)
#include <concurrent_queue/spec.hpp>
#endif

namespace {

namespace parallel = merilo::parallel;

/// Checks `spec` at the defaults with seeds `first`.. until a check fails
/// with `tag`, at most `tries` checks; the seed that found it, or 0.
template <class S>
std::uint64_t found_within(const S& spec, std::string_view tag, std::uint64_t first,
                           std::uint64_t tries) {
  for (std::uint64_t seed = first; seed < first + tries; ++seed) {
    const auto r = parallel::check(spec, {.seed = seed});
    EXPECT_TRUE(r.error.empty()) << r.error;
    if (r.failure && r.failure->violation.tag == tag) {
      EXPECT_EQ(r.failure->scheduling.scheduler, parallel::Scheduler::stress);
      return seed;
    }
    // A failure with another tag would be a false alarm on these shapes.
    EXPECT_FALSE(r.failure.has_value()) << parallel::report(*r.failure);
  }
  return 0;
}

// Each shape is found at the first seed nearly always (bench_stress
// measures how often); more checks make the test independent of the
// machine's load without hiding a stress mode that stopped finding races.
// Six were not enough for the ring once, with the test at nice 19 beside a
// search holding one of the two cores (6 checks, 27 s, none found it; the
// same test alone found it in 0.4 s).
constexpr std::uint64_t kTries = 16;

TEST(StressStd, ALostIncrementOfARelaxedLoadThenStoreIsFound) {
  EXPECT_NE(
      found_within(stdsys::CounterSpec{.racy = true}, parallel::kNotLinearizableTag, 1, kTries),
      0U);
}

TEST(StressStd, ADoubleInsertFromTwoLockSectionsIsFound) {
  EXPECT_NE(found_within(stdsys::SetSpec{.racy = true}, parallel::kNotLinearizableTag, 1, kTries),
            0U);
}

TEST(StressStd, ALockOrderDeadlockIsReportedAsADeadlock) {
  EXPECT_NE(found_within(stdsys::AccountsSpec{.ordered = false}, parallel::kDeadlockTag, 1, kTries),
            0U);
}

TEST(StressStd, ARingThatChecksItsSizeBeforeClaimingASlotGoesOverCapacityAndIsFound) {
  EXPECT_NE(found_within(stdsys::RingSpec{.racy = true}, parallel::kNotLinearizableTag, 1, kTries),
            0U);
}

/// Checks `spec` at the defaults with `checks` seeds; every one must pass.
template <class S>
void never_fails(const S& spec, std::uint64_t checks, std::size_t test_count = 100) {
  for (std::uint64_t seed = 1; seed <= checks; ++seed) {
    const auto r = parallel::check(spec, {.seed = seed, .test_count = test_count});
    ASSERT_TRUE(r.error.empty()) << r.error;
    ASSERT_FALSE(r.failure.has_value()) << parallel::report(*r.failure);
    EXPECT_EQ(r.free_cases, test_count);  // every case ran free, in stress mode
  }
}

TEST(StressStd, TheFixedCounterIsNeverReported) { never_fails(stdsys::CounterSpec{}, 4); }
TEST(StressStd, TheFixedSetIsNeverReported) { never_fails(stdsys::SetSpec{}, 4); }
TEST(StressStd, AccountsLockedInOneOrderNeverDeadlock) {
  never_fails(stdsys::AccountsSpec{.ordered = true}, 4);
}
TEST(StressStd, TheFixedRingIsNeverReported) { never_fails(stdsys::RingSpec{}, 4); }
TEST(StressStd, AMutexGuardedDequeIsNeverReported) {
  never_fails(stdsys::FifoSpec<stdsys::LockedQueue>{}, 4);
}

/// A door nobody opens: `wait` blocks on a std::condition_variable with no
/// timeout, for good.
enum class Door : std::uint8_t { wait };
[[nodiscard]] constexpr std::string_view name(Door) noexcept { return "wait"; }
struct Closed {
  std::mutex mu;
  std::condition_variable cv;
  bool open = false;  // guarded by mu
};
struct ClosedSpec {
  using model_type = stdsys::Value;
  using command_type = Door;
  using response_type = std::int64_t;
  using sut_type = std::shared_ptr<Closed>;
  stdsys::Value initial() const { return {}; }
  merilo::statem::Gen<Door> command(const stdsys::Value&) const {
    return merilo::statem::just(Door::wait);
  }
  merilo::statem::Admission precondition(const stdsys::Value&, Door) const {
    return merilo::statem::Admission::admit;
  }
  stdsys::Value next_model(const stdsys::Value& m, Door) const { return m; }
  sut_type new_sut() const { return std::make_shared<Closed>(); }
  std::int64_t run(sut_type& d, Door) const {
    std::unique_lock lock(d->mu);
    d->cv.wait(lock, [&] { return d->open; });
    return 1;
  }
  parallel::MaybeViolation postcondition(const stdsys::Value&, Door, std::int64_t) const {
    return std::nullopt;
  }
  parallel::MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

// Threads that all wait without a timeout cannot wake each other: that is
// reported after a tenth of stall_time, not after all of it. (Stress mode
// asked for: the automatic scheduler's first, controlled execution would
// block its thread with the turn in the std wait until the deadline.)
TEST(StressStd, ThreadsAllInUntimedWaitsAreADeadlockWellBeforeStallTime) {
  const auto started = std::chrono::steady_clock::now();
  const auto r = parallel::check(ClosedSpec{}, {.seed = 1,
                                                .max_prefix = 0,
                                                .max_shrinks = 0,
                                                .scheduler = parallel::Scheduler::stress,
                                                .stall_time = std::chrono::seconds(20),
                                                .deadline = std::chrono::seconds(60)});
  const auto took = std::chrono::steady_clock::now() - started;
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->violation.tag, parallel::kDeadlockTag) << parallel::report(*r.failure);
#if defined(__linux__)
  EXPECT_LT(took, std::chrono::seconds(10));  // 2 s for the rule; the 20 s window never ran out
#else
  (void)took;
#endif
}

#if defined(MERILO_HAVE_TBB)
/// oneTBB's concurrent_queue, as `FifoSpec` drives it.
struct TbbQueue {
  tbb::concurrent_queue<std::int64_t> q;
  void push(std::int64_t v) { q.push(v); }
  bool try_pop(std::int64_t& v) { return q.try_pop(v); }
};
TEST(StressStd, OneTbbsConcurrentQueueIsNeverReported) {
  never_fails(stdsys::FifoSpec<TbbQueue>{}, 4);
}
#endif

#if defined(MERILO_HAVE_CONCURRENTQUEUE)
TEST(StressStd, MoodycamelsConcurrentQueueBehindTheMailboxIsNeverReported) {
  never_fails(concurrent_queue::Spec<concurrent_queue::Bug::none>{}, 4);
}
#endif

}  // namespace
