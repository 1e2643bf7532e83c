// spsc_ring.hpp — a single-producer single-consumer ring buffer that
// publishes a filled slot with a relaxed store.
//
// `SpscRing<fixed>` holds up to two ints. The producer writes the slot at
// `tail`, then advances `tail`; the consumer sees the slot is full when
// `tail` has moved past it, reads it, then advances `head` so the producer
// may reuse it. Seeded (`fixed == false`): `tail` is stored and loaded
// relaxed, so the consumer can see the new `tail` and still read the
// slot's old value — the write of the slot and the write of the index are
// not ordered for another thread. Fixed: `tail` is stored with release and
// loaded with acquire (the consumer's `head` already is), the textbook
// recipe.
//
// Slots are `merilo::sync::atomic<int>` accessed relaxed, so `sync::model`
// sees the stale read; a ring of plain ints has the same bug.
//
// Example:
//
//   threads::SpscRing<true> ring;
//   ring.push(7);  // true
//   ring.pop();    // 7
#ifndef MERILO_EXAMPLES_THREADS_SPSC_RING_HPP
#define MERILO_EXAMPLES_THREADS_SPSC_RING_HPP

#include <array>     // the slots
#include <atomic>    // std::memory_order
#include <cstddef>   // std::size_t
#include <optional>  // pop

#include <merilo/sync/model.hpp>

namespace threads {

/// A bounded FIFO of ints for one producer thread and one consumer thread.
template <bool fixed>
class SpscRing {
 public:
  /// How many values the ring holds.
  static constexpr std::size_t kCapacity = 2;

  /// Producer only: appends `value`; false when the ring is full.
  bool push(int value) {
    const std::size_t tail = tail_.load(std::memory_order_relaxed);  // only the producer writes it
    if (tail - head_.load(std::memory_order_acquire) == kCapacity) return false;
    slots_[tail % kCapacity].store(value, std::memory_order_relaxed);
    tail_.store(tail + 1, fixed ? std::memory_order_release : std::memory_order_relaxed);
    return true;
  }

  /// Consumer only: removes the oldest value; nullopt when the ring is empty.
  std::optional<int> pop() {
    const std::size_t head = head_.load(std::memory_order_relaxed);  // only the consumer writes it
    if (head == tail_.load(fixed ? std::memory_order_acquire : std::memory_order_relaxed)) {
      return std::nullopt;
    }
    const int value = slots_[head % kCapacity].load(std::memory_order_relaxed);
    head_.store(head + 1, std::memory_order_release);  // the slot may be reused
    return value;
  }

 private:
  std::array<merilo::sync::atomic<int>, kCapacity> slots_{};
  merilo::sync::atomic<std::size_t> head_{0};  ///< Next slot to read.
  merilo::sync::atomic<std::size_t> tail_{0};  ///< Next slot to write.
};

/// The test body: a producer pushes 1 and 2, the consumer pops twice (no
/// waiting: an empty ring is a pop that returns nothing), and whatever it
/// got must be 1, then 2.
template <bool fixed>
void spsc_ring_body() {
  SpscRing<fixed> ring;
  merilo::sync::thread producer([&ring] {
    ring.push(1);
    ring.push(2);
  });
  int expected = 1;
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (const std::optional<int> got = ring.pop()) {
      MERILO_SYNC_ASSERT(*got == expected);
      ++expected;
    }
  }
  producer.join();
}

}  // namespace threads

#endif  // MERILO_EXAMPLES_THREADS_SPSC_RING_HPP
