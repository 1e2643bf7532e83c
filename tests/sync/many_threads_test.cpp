// sync::model past eight threads: a run may have up to kMaxThreads
// threads, the body included, under the memory model; one more is refused
// with an error that names the limit.
#include <merilo/sync/model.hpp>

#include <atomic>
#include <cstddef>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace {

namespace ms = merilo::sync;

constexpr auto relaxed = std::memory_order_relaxed;

/// The body plus this many threads is the runtime's limit.
constexpr std::size_t kMostSpawned = 127;

TEST(ManyThreads, TheBodyAndOneHundredTwentySevenThreadsRunUnderTheMemoryModel) {
  const ms::ModelResult r = ms::model([] {
    std::vector<ms::atomic<int>> cells(kMostSpawned);
    std::vector<ms::thread> threads;
    for (std::size_t i = 0; i < kMostSpawned; ++i) {
      threads.emplace_back([&cells, i] { cells[i].store(static_cast<int>(i) + 1, relaxed); });
    }
    for (ms::thread& t : threads) t.join();
    // The joins make every store visible: reading anything else would be a
    // false alarm of the vector clocks past thread 7.
    for (std::size_t i = 0; i < kMostSpawned; ++i) {
      MERILO_SYNC_ASSERT(cells[i].load(relaxed) == static_cast<int>(i) + 1);
    }
  });
  EXPECT_TRUE(r.passed()) << r.report();
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.executions - r.sleep_blocked, 1U) << r.summary();
}

/// Threads 1..98 keep to themselves; thread 99 publishes `data` with a
/// relaxed flag and thread 100 reads them: the message-passing bug between
/// two threads far past the old limit of 8.
void far_message_passing() {
  ms::atomic<int> data{0};
  ms::atomic<int> flag{0};
  std::vector<ms::atomic<int>> own(98);
  std::vector<ms::thread> threads;
  for (std::size_t i = 0; i < own.size(); ++i) {
    threads.emplace_back([&own, i] { own[i].store(1, relaxed); });
  }
  threads.emplace_back([&] {
    data.store(42, relaxed);
    flag.store(1, relaxed);
  });
  threads.emplace_back([&] {
    if (flag.load(relaxed) == 1) MERILO_SYNC_ASSERT(data.load(relaxed) == 42);
  });
  for (ms::thread& t : threads) t.join();
}

TEST(ManyThreads, ARelaxedFlagBetweenThreadsNinetyNineAndOneHundredIsFoundAndReplayed) {
  ms::ModelOptions options;
  options.simplest = false;
  const ms::ModelResult r = ms::model(options, far_message_passing);
  ASSERT_TRUE(r.failure) << r.summary();
  EXPECT_EQ(r.failure->tag, ms::kAssertionTag);
  EXPECT_NE(r.failure->message.find("thread 100"), std::string::npos) << r.failure->message;
  ms::ModelOptions pinned;
  pinned.replay = r.failure->pin;
  const ms::ModelResult again = ms::model(pinned, far_message_passing);
  ASSERT_TRUE(again.failure) << again.summary();
  EXPECT_EQ(again.failure->timeline, r.failure->timeline);
}

TEST(ManyThreads, AThreadBeyondTheLimitIsRefusedWithTheLimitNamed) {
  const ms::ModelResult r = ms::model([] {
    std::vector<ms::thread> threads;
    for (std::size_t i = 0; i <= kMostSpawned; ++i) threads.emplace_back([] {});
    for (ms::thread& t : threads) t.join();
  });
  ASSERT_TRUE(r.failure) << r.summary();
  EXPECT_EQ(r.failure->tag, ms::kTooManyThreadsTag);
  EXPECT_NE(r.failure->message.find("limit of 128 threads"), std::string::npos)
      << r.failure->message;
}

}  // namespace
