// chase_lev.hpp — a work-stealing deque (Chase and Lev) whose owner's take
// is missing its seq_cst fence.
//
// The owner pushes and takes at the bottom; thieves steal at the top. A
// take first claims the bottom slot (bottom - 1), then reads `top` to see
// whether a thief might want the same slot; a steal reads `top`, then
// `bottom`, and claims a slot by compare-and-swap on `top`. Each side
// stores one index and then loads the other's: the store-buffering shape,
// which only seq_cst fences on both sides (Lê, Pop, Cohen and Zappa
// Nardelli, "Correct and efficient work-stealing for weak memory models",
// PPoPP 2013) make safe. Seeded (`fixed == false`): the take has no fence,
// so it can read an old `top` while a thief reads the old `bottom`, and
// both take the same item. Fixed: `atomic_thread_fence(seq_cst)` between
// the take's store of `bottom` and its load of `top`.
//
// The deque holds up to four items and never grows; steal gives up rather
// than retry when it loses a race.
//
// Example:
//
//   threads::ChaseLev<true> d;
//   d.push(1);
//   d.take();  // 1
#ifndef MERILO_EXAMPLES_THREADS_CHASE_LEV_HPP
#define MERILO_EXAMPLES_THREADS_CHASE_LEV_HPP

#include <array>     // the buffer
#include <atomic>    // std::memory_order
#include <cstdint>   // indices
#include <optional>  // take, steal

#include <merilo/sync/model.hpp>

namespace threads {

/// A bounded work-stealing deque of ints: one owner, any number of thieves.
template <bool fixed>
class ChaseLev {
 public:
  /// Owner only: adds `value` at the bottom (at most four in all).
  void push(int value) {
    const std::int64_t b = bottom_.load(std::memory_order_relaxed);
    slots_[slot(b)].store(value, std::memory_order_relaxed);
    bottom_.store(b + 1, std::memory_order_release);
  }

  /// Owner only: removes the newest item, or nullopt.
  std::optional<int> take() {
    const std::int64_t b = bottom_.load(std::memory_order_relaxed) - 1;
    bottom_.store(b, std::memory_order_relaxed);
    if constexpr (fixed) {
      merilo::sync::atomic_thread_fence(std::memory_order_seq_cst);  // seeded: missing
    }
    std::int64_t t = top_.load(std::memory_order_relaxed);
    if (t > b) {  // empty
      bottom_.store(b + 1, std::memory_order_relaxed);
      return std::nullopt;
    }
    const int value = slots_[slot(b)].load(std::memory_order_relaxed);
    if (t == b) {  // the last item: race the thieves for it
      const bool won = top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                                    std::memory_order_relaxed);
      bottom_.store(b + 1, std::memory_order_relaxed);
      if (!won) return std::nullopt;
    }
    return value;
  }

  /// Any thief: removes the oldest item, or nullopt (empty, or lost a race).
  std::optional<int> steal() {
    std::int64_t t = top_.load(std::memory_order_acquire);
    merilo::sync::atomic_thread_fence(std::memory_order_seq_cst);
    const std::int64_t b = bottom_.load(std::memory_order_acquire);
    if (t >= b) return std::nullopt;
    const int value = slots_[slot(t)].load(std::memory_order_relaxed);
    if (!top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                      std::memory_order_relaxed)) {
      return std::nullopt;
    }
    return value;
  }

 private:
  static std::size_t slot(std::int64_t i) { return static_cast<std::size_t>(i % 4); }

  std::array<merilo::sync::atomic<int>, 4> slots_{};
  merilo::sync::atomic<std::int64_t> top_{0};
  merilo::sync::atomic<std::int64_t> bottom_{0};
};

/// The test body: the owner pushes 1 and 2 and takes once while a thief
/// steals twice; no item may be taken twice.
template <bool fixed>
void chase_lev_body() {
  ChaseLev<fixed> deque;
  deque.push(1);
  deque.push(2);
  std::array<int, 3> got{};  // how often each item was taken
  merilo::sync::thread thief([&] {
    for (int i = 0; i < 2; ++i) {
      if (const std::optional<int> v = deque.steal()) ++got[static_cast<std::size_t>(*v)];
    }
  });
  const std::optional<int> mine = deque.take();
  thief.join();
  if (mine) ++got[static_cast<std::size_t>(*mine)];
  MERILO_SYNC_ASSERT(got[1] <= 1 && got[2] <= 1);
}

}  // namespace threads

#endif  // MERILO_EXAMPLES_THREADS_CHASE_LEV_HPP
