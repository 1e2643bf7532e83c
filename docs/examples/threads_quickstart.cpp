// docs/examples/threads_quickstart.cpp
#include <atomic>

#include <gtest/gtest.h>
#include <merilo/sync/model.hpp>

namespace ms = merilo::sync;

// A writer fills `data`, then raises `flag`; a reader that sees the flag
// expects the data. `publish` and `observe` are the orders of the flag.
void message_passing(std::memory_order publish, std::memory_order observe) {
  ms::atomic<int> data{0};
  ms::atomic<bool> flag{false};
  ms::thread writer([&] {
    data.store(42, std::memory_order_relaxed);
    flag.store(true, publish);
  });
  if (flag.load(observe)) MERILO_SYNC_ASSERT(data.load(std::memory_order_relaxed) == 42);
  writer.join();
}

TEST(MessagePassing, ARelaxedFlagDoesNotPublishTheData) {
  const ms::ModelResult r = ms::model(
      [] { message_passing(std::memory_order_relaxed, std::memory_order_relaxed); });
  ASSERT_TRUE(r.failure) << r.summary();
  EXPECT_EQ(r.failure->tag, ms::kAssertionTag);
  // r.report() prints the schedule, the store each load read, and a test
  // that replays this execution from r.failure->pin.
}

TEST(MessagePassing, ReleaseAndAcquirePublishTheData) {
  const ms::ModelResult r = ms::model(
      [] { message_passing(std::memory_order_release, std::memory_order_acquire); });
  EXPECT_TRUE(r.passed()) << r.report();
  EXPECT_TRUE(r.complete);  // every execution the memory model allows was checked
}
