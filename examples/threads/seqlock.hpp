// seqlock.hpp — a sequence lock whose reader forgets the acquire fence.
//
// A seqlock protects data that is read often and written rarely without
// making readers write anything. The writer makes the sequence number odd,
// writes the data, then makes it even again; a reader reads the number,
// copies the data, reads the number again, and keeps its copy only if both
// readings are the same even number. The data must be read with atomic
// (relaxed) loads, and the recipe that makes this correct under the C++
// memory model (Boehm, "Can seqlocks get along with programming language
// memory models?", 2012) needs two fences: a release fence in the writer
// after it makes the number odd, and an acquire fence in the reader
// between its data loads and its second load of the number.
//
// Seeded (`fixed == false`): the reader has no acquire fence, so its
// second, relaxed load of the number may still read the old even value
// after a data load has read the writer's new data: it accepts a torn copy
// (one word new, one old). Fixed: `atomic_thread_fence(acquire)` before
// the second load. A data load that read the writer's value then
// synchronises the writer's release fence with the reader's acquire fence,
// so the second load must see the odd number.
//
// Example:
//
//   threads::SeqLock<true> s;
//   s.write(5);
//   s.read();  // {5, 5}
#ifndef MERILO_EXAMPLES_THREADS_SEQLOCK_HPP
#define MERILO_EXAMPLES_THREADS_SEQLOCK_HPP

#include <atomic>    // std::memory_order
#include <optional>  // try_read
#include <utility>   // std::pair

#include <merilo/sync/model.hpp>

namespace threads {

/// Two words written together by one writer, read without a lock.
template <bool fixed>
class SeqLock {
 public:
  /// Writer only: sets both words to `value`.
  void write(int value) {
    const unsigned seq = seq_.load(std::memory_order_relaxed);  // only the writer changes it
    seq_.store(seq + 1, std::memory_order_relaxed);             // odd: a write is under way
    merilo::sync::atomic_thread_fence(std::memory_order_release);
    first_.store(value, std::memory_order_relaxed);
    second_.store(value, std::memory_order_relaxed);
    seq_.store(seq + 2, std::memory_order_release);  // even again
  }

  /// One attempt to copy the words: nullopt if a write got in the way.
  std::optional<std::pair<int, int>> try_read() const {
    const unsigned before = seq_.load(std::memory_order_acquire);
    const int a = first_.load(std::memory_order_relaxed);
    const int b = second_.load(std::memory_order_relaxed);
    if constexpr (fixed) {
      merilo::sync::atomic_thread_fence(std::memory_order_acquire);  // seeded: missing
    }
    const unsigned after = seq_.load(std::memory_order_relaxed);
    if (before != after || before % 2 != 0) return std::nullopt;
    return std::pair{a, b};
  }

 private:
  merilo::sync::atomic<unsigned> seq_{0};
  merilo::sync::atomic<int> first_{0};
  merilo::sync::atomic<int> second_{0};
};

/// The test body: one write races one read; a copy the reader keeps must
/// not be torn.
template <bool fixed>
void seqlock_body() {
  SeqLock<fixed> lock;
  merilo::sync::thread writer([&lock] { lock.write(1); });
  if (const auto copy = lock.try_read()) MERILO_SYNC_ASSERT(copy->first == copy->second);
  writer.join();
}

}  // namespace threads

#endif  // MERILO_EXAMPLES_THREADS_SEQLOCK_HPP
