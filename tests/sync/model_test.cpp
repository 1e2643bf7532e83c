// sync::model on plain threaded tests: executions counted where the number
// of Mazurkiewicz traces is known, weak-memory bugs found and their fixes
// passed, failures pinned and replayed.
#include <merilo/sync/model.hpp>

#include <atomic>
#include <chrono>
#include <exception>
#include <set>
#include <shared_mutex>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace {

namespace ms = merilo::sync;

constexpr auto relaxed = std::memory_order_relaxed;
constexpr auto acquire = std::memory_order_acquire;
constexpr auto release = std::memory_order_release;

/// n threads, each doing `step(i)`, started and joined by the body.
template <class Step>
void fan_out(std::size_t n, Step step) {
  std::vector<ms::thread> threads;
  for (std::size_t i = 0; i < n; ++i) threads.emplace_back([i, &step] { step(i); });
  for (auto& t : threads) t.join();
}

std::size_t factorial(std::size_t n) { return n <= 1 ? 1 : n * factorial(n - 1); }

TEST(Model, ThreadsWritingTheirOwnAtomicsRunOnce) {
  for (std::size_t n = 1; n <= 4; ++n) {
    const ms::ModelResult r = ms::model([n] {
      std::vector<ms::atomic<int>> cells(n);
      fan_out(n, [&](std::size_t i) { cells[i].store(1, relaxed); });
    });
    EXPECT_TRUE(r.passed()) << r.report();
    EXPECT_TRUE(r.complete);
    EXPECT_EQ(r.executions - r.sleep_blocked, 1U) << "n = " << n << "\n" << r.summary();
  }
}

TEST(Model, ThreadsAddingToOneAtomicRunEveryOrderOnce) {
  for (std::size_t n = 1; n <= 4; ++n) {
    std::set<std::vector<int>> orders;
    const ms::ModelResult r = ms::model([n, &orders] {
      ms::atomic<int> counter{0};
      std::vector<int> seen(n, -1);
      fan_out(n, [&](std::size_t i) { seen[i] = counter.fetch_add(1, relaxed); });
      MERILO_SYNC_ASSERT(counter.load(relaxed) == static_cast<int>(n));
      orders.insert(seen);
    });
    EXPECT_TRUE(r.passed()) << r.report();
    EXPECT_TRUE(r.complete);
    EXPECT_EQ(r.executions - r.sleep_blocked, factorial(n)) << r.summary();
    EXPECT_EQ(orders.size(), factorial(n));
  }
}

TEST(Model, AMutexProtectedCounterRunsEveryOrderOfTheCriticalSections) {
  for (std::size_t n = 1; n <= 4; ++n) {
    const ms::ModelResult r = ms::model([n] {
      ms::mutex mu;
      int counter = 0;
      fan_out(n, [&](std::size_t) {
        const std::lock_guard lock(mu);
        ++counter;
      });
      MERILO_SYNC_ASSERT(counter == static_cast<int>(n));
    });
    EXPECT_TRUE(r.passed()) << r.report();
    EXPECT_TRUE(r.complete);
    EXPECT_EQ(r.executions - r.sleep_blocked, factorial(n)) << r.summary();
  }
}

/// Message passing: the data, then the flag; the reader checks the data
/// when it sees the flag.
void message_passing(std::memory_order store_flag, std::memory_order load_flag) {
  ms::atomic<int> data{0};
  ms::atomic<int> flag{0};
  ms::thread writer([&] {
    data.store(42, relaxed);
    flag.store(1, store_flag);
  });
  if (flag.load(load_flag) == 1) MERILO_SYNC_ASSERT(data.load(relaxed) == 42);
  writer.join();
}

TEST(Model, MessagePassingWithARelaxedFlagIsFound) {
  const ms::ModelResult r = ms::model([] { message_passing(relaxed, relaxed); });
  ASSERT_FALSE(r.passed());
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->tag, ms::kAssertionTag);
  EXPECT_NE(r.failure->message.find("data.load(relaxed) == 42"), std::string::npos);
  EXPECT_LE(r.executions, 100U);
  EXPECT_NE(r.failure->memory.find("reads-from"), std::string::npos) << r.report();
  EXPECT_NE(r.report().find("options.replay = \"m1:"), std::string::npos) << r.report();
}

TEST(Model, MessagePassingWithReleaseAndAcquirePasses) {
  const ms::ModelResult r = ms::model([] { message_passing(release, acquire); });
  EXPECT_TRUE(r.passed()) << r.report();
  EXPECT_TRUE(r.complete);
}

TEST(Model, WithoutTheMemoryModelTheRelaxedFlagPasses) {
  ms::ModelOptions sc;
  sc.memory_model = false;
  const ms::ModelResult r = ms::model(sc, [] { message_passing(relaxed, relaxed); });
  EXPECT_TRUE(r.passed()) << r.report();
  EXPECT_TRUE(r.complete);
}

TEST(Model, StoreBufferingShowsEveryRelaxedOutcomeAndOnlyTheSeqCstOnes) {
  for (const bool seq_cst : {false, true}) {
    std::set<std::pair<int, int>> outcomes;
    const auto order = seq_cst ? std::memory_order_seq_cst : relaxed;
    const ms::ModelResult r = ms::model([&] {
      ms::atomic<int> x{0};
      ms::atomic<int> y{0};
      int a = -1;
      int b = -1;
      ms::thread t1([&] {
        x.store(1, order);
        a = y.load(order);
      });
      ms::thread t2([&] {
        y.store(1, order);
        b = x.load(order);
      });
      t1.join();
      t2.join();
      outcomes.insert({a, b});
    });
    EXPECT_TRUE(r.passed()) << r.report();
    EXPECT_TRUE(r.complete);
    std::set<std::pair<int, int>> expected{{0, 1}, {1, 0}, {1, 1}};
    if (!seq_cst) expected.insert({0, 0});
    EXPECT_EQ(outcomes, expected) << (seq_cst ? "seq_cst" : "relaxed");
  }
}

TEST(Model, ALockOrderDeadlockIsFoundAndNamed) {
  const ms::ModelResult r = ms::model([] {
    ms::mutex a;
    ms::mutex b;
    ms::thread t([&] {
      const std::lock_guard la(a);
      const std::lock_guard lb(b);
    });
    {
      const std::lock_guard lb(b);
      const std::lock_guard la(a);
    }
    t.join();
  });
  ASSERT_TRUE(r.failure) << r.report();
  EXPECT_EQ(r.failure->tag, ms::kDeadlockTag);
  EXPECT_NE(r.failure->message.find("waits to lock mutex"), std::string::npos) << r.report();
  EXPECT_EQ(r.failure->preemptions, 1U) << r.report();
}

TEST(Model, AnExceptionOutOfAThreadFailsTheExecution) {
  const ms::ModelResult r = ms::model([] {
    ms::thread t([] { throw std::runtime_error("boom"); });
    t.join();
  });
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->tag, ms::kExceptionTag);
  EXPECT_NE(r.failure->message.find("thread 1 ended with an exception: boom"), std::string::npos)
      << r.report();
}

TEST(Model, APinReplaysTheFailureAndOnlyThatExecution) {
  const auto body = [] { message_passing(relaxed, relaxed); };
  const ms::ModelResult found = ms::model(body);
  ASSERT_TRUE(found.failure);
  ms::ModelOptions pinned;
  pinned.replay = found.failure->pin;
  for (int i = 0; i < 3; ++i) {
    const ms::ModelResult again = ms::model(pinned, body);
    EXPECT_EQ(again.executions, 1U);
    ASSERT_TRUE(again.failure) << again.report();
    EXPECT_EQ(again.failure->pin, found.failure->pin);
    EXPECT_EQ(again.failure->timeline, found.failure->timeline);
  }
  // The fixed body passes the same pin.
  const ms::ModelResult fixed = ms::model(pinned, [] { message_passing(release, acquire); });
  EXPECT_FALSE(fixed.failure && fixed.failure->tag == ms::kAssertionTag) << fixed.report();
}

TEST(Model, ABadPinIsAUsageErrorThatNamesIt) {
  ms::ModelOptions o;
  o.replay = "m1:0.x";
  const ms::ModelResult r = ms::model(o, [] {});
  EXPECT_FALSE(r.passed());
  EXPECT_NE(r.error.find("bad choice \"x\""), std::string::npos) << r.error;
  o.replay = "0.1";
  EXPECT_NE(ms::model(o, [] {}).error.find("not a pin"), std::string::npos);
}

TEST(Model, AThreadLeftJoinableIsNamed) {
  const ms::ModelResult r = ms::model([] { ms::thread t([] {}); });
  ASSERT_TRUE(r.failure) << r.report();
  EXPECT_EQ(r.failure->tag, ms::kNotJoinedTag);
}

TEST(Model, EveryStrategyFindsTheRelaxedMessagePassingBug) {
  for (const ms::Search s : {ms::Search::bounded, ms::Search::pct, ms::Search::random}) {
    ms::ModelOptions o;
    o.search = s;
    o.max_executions = 2000;
    const ms::ModelResult r = ms::model(o, [] { message_passing(relaxed, relaxed); });
    ASSERT_TRUE(r.failure) << ms::search_name(s) << ": " << r.summary();
    EXPECT_EQ(r.failure->tag, ms::kAssertionTag);
  }
}

}  // namespace

namespace {

TEST(Model, AConditionVariableHandOffIsCheckedInEveryOrder) {
  // A one-slot channel: the consumer waits for the value under the mutex.
  const ms::ModelResult r = ms::model([] {
    ms::mutex mu;
    ms::condition_variable cv;
    bool ready = false;
    int value = 0;
    ms::thread producer([&] {
      {
        const std::lock_guard lock(mu);
        value = 7;
        ready = true;
      }
      cv.notify_one();
    });
    {
      std::unique_lock lock(mu);
      cv.wait(lock, [&] { return ready; });
      MERILO_SYNC_ASSERT(value == 7);
    }
    producer.join();
  });
  EXPECT_TRUE(r.passed()) << r.report();
  EXPECT_TRUE(r.complete);
}

TEST(Model, ANotifyBeforeTheWaitWithoutAPredicateIsALostWakeUp) {
  // The classic lost wake-up: the waiter does not check a condition.
  const ms::ModelResult r = ms::model([] {
    ms::mutex mu;
    ms::condition_variable cv;
    ms::thread notifier([&] { cv.notify_one(); });
    {
      std::unique_lock lock(mu);
      cv.wait(lock);
    }
    notifier.join();
  });
  ASSERT_TRUE(r.failure) << r.report();
  EXPECT_EQ(r.failure->tag, ms::kDeadlockTag) << r.report();
}

TEST(Model, ReadersAndAWriterOfASharedMutexAreChecked) {
  const ms::ModelResult r = ms::model([] {
    ms::shared_mutex mu;
    int value = 0;
    ms::thread writer([&] {
      const std::lock_guard lock(mu);
      value = 1;
    });
    ms::thread reader([&] {
      const std::shared_lock lock(mu);
      MERILO_SYNC_ASSERT(value == 0 || value == 1);
    });
    writer.join();
    reader.join();
  });
  EXPECT_TRUE(r.passed()) << r.report();
  EXPECT_TRUE(r.complete);
}

TEST(Model, ALostUpdateNeedsNoWeakMemoryAndIsFoundWithOnePreemption) {
  const ms::ModelResult r = ms::model([] {
    ms::atomic<int> n{0};
    const auto increment = [&] { n.store(n.load() + 1); };
    ms::thread a(increment);
    ms::thread b(increment);
    a.join();
    b.join();
    MERILO_SYNC_ASSERT(n.load() == 2);
  });
  ASSERT_TRUE(r.failure) << r.report();
  EXPECT_EQ(r.failure->tag, ms::kAssertionTag);
  EXPECT_EQ(r.failure->preemptions, 1U) << r.report();
  EXPECT_EQ(r.failure->weak_choices, 0U) << r.report();
}

}  // namespace

namespace {

TEST(Model, WhenTheSearchStopsShortTheScheduleFuzzerTakesOver) {
  ms::ModelOptions o;
  o.max_executions = 2;  // the reduction finds this bug at its third execution
  o.simplest = false;
  const ms::ModelResult r = ms::model(o, [] { message_passing(relaxed, relaxed); });
  ASSERT_TRUE(r.failure) << r.summary();
  EXPECT_EQ(r.failure->found_by, "fuzzer");
  EXPECT_EQ(r.failure->tag, ms::kAssertionTag);
  EXPECT_NE(r.summary().find("found by the fuzzer"), std::string::npos) << r.summary();
  // Without the fuzzer the search just stops short.
  o.fuzz_executions = 0;
  const ms::ModelResult short_of_it = ms::model(o, [] { message_passing(relaxed, relaxed); });
  EXPECT_FALSE(short_of_it.failure);
  EXPECT_FALSE(short_of_it.complete);
}

}  // namespace

namespace {

/// Slow to unwind: a thread leaving a deadlocked run through it is still
/// unwinding (and will unlock through the run's controller) after the body
/// has returned.
struct SlowToUnwind {
  SlowToUnwind() = default;
  SlowToUnwind(const SlowToUnwind&) = delete;
  SlowToUnwind& operator=(const SlowToUnwind&) = delete;
  ~SlowToUnwind() {
    if (std::uncaught_exceptions() > 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
};

TEST(Model, AThreadStillUnwindingFromADeadlockIsWaitedForBeforeTheNextExecution) {
  // Before the fix the run was freed as soon as the body returned, and the
  // unwinding thread unlocked through a freed controller (or through the
  // next execution's, made at the same address).
  for (int i = 0; i < 5; ++i) {
    const ms::ModelResult r = ms::model([] {
      ms::mutex a;
      ms::mutex b;
      ms::thread t([&] {
        const std::lock_guard la(a);
        const SlowToUnwind slow;
        const std::lock_guard lb(b);
      });
      {
        const std::lock_guard lb(b);
        const std::lock_guard la(a);
      }
      t.join();
    });
    ASSERT_TRUE(r.failure) << r.summary();
    EXPECT_EQ(r.failure->tag, ms::kDeadlockTag) << r.report();
    EXPECT_NE(r.failure->pin, "m1:") << r.report();
    const ms::ModelResult next = ms::model([] { message_passing(release, acquire); });
    EXPECT_TRUE(next.passed()) << next.report();
    EXPECT_TRUE(next.complete);
  }
}

}  // namespace
