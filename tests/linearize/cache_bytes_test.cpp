// cache_bytes_test.cpp — the state cache counts a model's heap memory
// against its cap: `heap_bytes()` when the model has it (QueueModel,
// KvModel), the bytes that identify it otherwise.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <merilo/linearize/detail/state_cache.hpp>
#include <merilo/linearize/history.hpp>
#include <merilo/linearize/models.hpp>

namespace merilo::linearize {
namespace {

static_assert(detail::ReportsHeapBytes<QueueModel>);
static_assert(detail::ReportsHeapBytes<KvModel>);
static_assert(!detail::ReportsHeapBytes<RegisterModel>);

TEST(CacheBytes, CountsADequesBlocksNotJustItsItems) {
  // An empty deque still holds a 512-byte block and a map.
  EXPECT_GE(QueueModel{}.heap_bytes(), 512U);
  QueueModel big;
  for (std::int64_t i = 0; i < 1000; ++i) big.items.push_back(i);
  EXPECT_GE(big.heap_bytes(), 1000 * sizeof(std::int64_t));
  EXPECT_EQ(detail::held_bytes(big, 8), big.heap_bytes());
}

TEST(CacheBytes, CountsAStringsBufferOnlyOnceItLeavesTheObject) {
  EXPECT_EQ(KvModel{"short"}.heap_bytes(), 0U);
  EXPECT_GE(KvModel{std::string(100, 'x')}.heap_bytes(), 101U);
}

TEST(CacheBytes, WithoutHeapBytesCountsTheIdentifyingBytes) {
  EXPECT_EQ(detail::held_bytes(RegisterModel{}, 16), 16U);
}

TEST(CacheBytes, AQueueCacheCountsEveryStatesBlocks) {
  // Overlapping enqueues and dequeues, no pending calls: one cache entry
  // per (positions, model) group, each holding a deque.
  using Op = Operation<QueueCmd, QueueResponse>;
  std::vector<Op> ops;
  for (std::int64_t i = 0; i < 40; ++i) {
    ops.push_back(Op{QueueCmd{QueueCmd::Kind::enqueue, i, ""}, QueueResponse{}, 2 * i, 2 * i + 3});
  }
  for (std::int64_t i = 0; i < 40; ++i) {
    ops.push_back(Op{QueueCmd{QueueCmd::Kind::dequeue, 0, ""}, QueueResponse{false, i}, 100 + 2 * i,
                     100 + 2 * i + 3});
  }
  const auto r = check_history(QueueSpec{}, QueueModel{}, ops, {});
  ASSERT_TRUE(r.ok());
  ASSERT_GT(r.cache_entries, 40U);
  EXPECT_GE(r.cache_bytes, r.cache_entries * QueueModel{}.heap_bytes());
}

}  // namespace
}  // namespace merilo::linearize
