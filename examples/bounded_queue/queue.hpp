// queue.hpp — a FIFO queue of capacity 2 shared by several threads, and a
// push that checks the size before it takes the lock.
//
// The items sit in a ring of two slots behind a mutex; the size is also an
// atomic, so a caller can ask whether the queue is full without locking.
// `Queue<Bug::none>` checks the size under the mutex, so a push on a full
// queue is refused. `Queue<Bug::unlocked_check>` takes the fast path: it
// reads the atomic size, and only if there is room locks, writes the slot
// after the last item and bumps the size. Two pushes that both read "one
// item" before either bumps both succeed: the second writes over the first
// item and the size goes to 3, over capacity. Under the parallel tester the
// atomic read and the lock are scheduling points (merilo::sync), so the
// window between them is met by search.
//
// Example:
//
//   bounded_queue::Queue<> q;
//   q.push(4);   // true
//   q.push(5);   // true
//   q.push(6);   // false: full
//   q.pop();     // 4
#ifndef MERILO_EXAMPLES_BOUNDED_QUEUE_QUEUE_HPP
#define MERILO_EXAMPLES_BOUNDED_QUEUE_QUEUE_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <mutex>  // std::lock_guard
#include <optional>

#include <merilo/sync/sync.hpp>

namespace bounded_queue {

/// Seeded bugs, switched at compile time.
enum class Bug : std::uint8_t { none, unlocked_check };

/// Items the queue holds at most.
inline constexpr std::size_t kCapacity = 2;

/// A bounded FIFO queue of integers shared by several threads.
template <Bug bug = Bug::none>
class Queue {
 public:
  /// Appends `value` if there is room; returns whether it did.
  bool push(std::int32_t value) {
    if constexpr (bug == Bug::unlocked_check) {
      if (size_.load() >= kCapacity) return false;  // a fast path, outside the lock
    }
    std::lock_guard lock(mu_);  // another push may have filled the queue in between
    const std::size_t size = size_.load();
    if constexpr (bug == Bug::none) {
      if (size >= kCapacity) return false;
    }
    slots_[(head_ + size) % kCapacity] = value;
    size_.store(size + 1);
    return true;
  }

  /// Removes and returns the oldest item, or nothing when the queue is empty.
  std::optional<std::int32_t> pop() {
    std::lock_guard lock(mu_);
    const std::size_t size = size_.load();
    if (size == 0) return std::nullopt;
    const std::int32_t value = slots_[head_];
    head_ = (head_ + 1) % kCapacity;
    size_.store(size - 1);
    return value;
  }

  /// How many items the queue holds (no lock: one atomic read).
  [[nodiscard]] std::size_t size() const { return size_.load(); }

 private:
  merilo::sync::mutex mu_;
  merilo::sync::atomic<std::size_t> size_{0};
  std::array<std::int32_t, kCapacity> slots_{};
  std::size_t head_ = 0;
};

}  // namespace bounded_queue

#endif  // MERILO_EXAMPLES_BOUNDED_QUEUE_QUEUE_HPP
