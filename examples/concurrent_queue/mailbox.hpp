// mailbox.hpp — a mailbox built on moodycamel::ConcurrentQueue (Debian's
// libconcurrentqueue-dev, code nobody in this project wrote): any number of
// threads post, consumers take items out in batches, and a seeded bug that
// lets a batch's leftovers jump the queue.
//
// moodycamel's queue is lock-free and documents two things a user must
// plan around: items keep their order per producer only (two threads'
// items come out in no promised order), and `try_dequeue` "returns false
// if all producer streams appeared empty at the time they were checked",
// so a consumer racing another consumer can find nothing though an item was
// there all along. `Mailbox` does what many users do: producers enqueue
// without a lock, and consumers take turns under a mutex, fetching up to
// `kBatch` items with one `try_dequeue_bulk` and keeping the rest in a
// local list that the next `take` serves first. With consumers taking
// turns, an empty answer means the queue really was empty when the take
// began, and every producer's items leave in the order it posted them.
//
// `Mailbox<Bug::none>` holds its mutex for the whole take.
// `Mailbox<Bug::unlocked_fetch>` locks only around its leftover list and
// fetches the batch outside the lock, "to keep the lock short": a take that
// finds no leftovers fetches items 1 and 2 of a producer, and before it has
// stored 2 another take fetches 3 and returns it, while 2 is still to come:
// that producer's order is broken. Nothing widens the window;
// it is as wide as the code between the two lock sections.
//
// Example:
//
//   concurrent_queue::Mailbox<> box;
//   box.post(7);
//   box.take();   // 7
//   box.take();   // std::nullopt (empty)
//
// NOTE: the mutex is a std::mutex, not merilo::sync's: the queue's own
// atomics are moodycamel's and cannot hand control to merilo's scheduler,
// so the example runs in stress mode (see README.md).
#ifndef MERILO_EXAMPLES_CONCURRENT_QUEUE_MAILBOX_HPP
#define MERILO_EXAMPLES_CONCURRENT_QUEUE_MAILBOX_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>

#include <concurrentqueue/concurrentqueue.h>

namespace concurrent_queue {

/// Seeded bugs, switched at compile time.
enum class Bug : std::uint8_t { none, unlocked_fetch };

/// Items one take fetches from the queue at most.
inline constexpr std::size_t kBatch = 2;

/// A multi-producer mailbox over moodycamel::ConcurrentQueue.
template <Bug bug = Bug::none>
class Mailbox {
 public:
  /// Enqueues `item` (lock-free; from any thread).
  void post(std::int64_t item) { queue_.enqueue(item); }

  /// The oldest leftover of an earlier batch, else the first item of a new
  /// batch; nothing when the queue is empty.
  std::optional<std::int64_t> take() {
    if constexpr (bug == Bug::unlocked_fetch) {
      {
        std::lock_guard lock(mu_);
        if (auto item = first_leftover()) return item;
      }
      std::array<std::int64_t, kBatch> batch{};
      const std::size_t n = queue_.try_dequeue_bulk(batch.begin(), kBatch);
      if (n == 0) return std::nullopt;
      std::lock_guard lock(mu_);  // another take may have fetched a newer batch meanwhile
      leftovers_.insert(leftovers_.end(), batch.begin() + 1,
                        batch.begin() + static_cast<std::ptrdiff_t>(n));
      return batch[0];
    } else {
      std::lock_guard lock(mu_);
      if (auto item = first_leftover()) return item;
      std::array<std::int64_t, kBatch> batch{};
      const std::size_t n = queue_.try_dequeue_bulk(batch.begin(), kBatch);
      if (n == 0) return std::nullopt;
      leftovers_.insert(leftovers_.end(), batch.begin() + 1,
                        batch.begin() + static_cast<std::ptrdiff_t>(n));
      return batch[0];
    }
  }

 private:
  // Called with mu_ held.
  std::optional<std::int64_t> first_leftover() {
    if (leftovers_.empty()) return std::nullopt;
    const std::int64_t item = leftovers_.front();
    leftovers_.pop_front();
    return item;
  }

  moodycamel::ConcurrentQueue<std::int64_t> queue_;
  std::mutex mu_;
  std::deque<std::int64_t> leftovers_;  // fetched in a batch, not yet taken
};

}  // namespace concurrent_queue

#endif  // MERILO_EXAMPLES_CONCURRENT_QUEUE_MAILBOX_HPP
