// counter.hpp — a shared counter, and the classic lost update.
//
// `Counter<Bug::none>` increments with one atomic read-modify-write.
// `Counter<Bug::lost_update>` reads the value and then stores `read + 1`
// (two relaxed atomic operations, as code that "only needs atomicity of
// each access" is written): two threads that both read before either
// writes return the same number, and one increment is lost. The window is
// the few nanoseconds between the load and the store; no pause widens it.
// The counter is written against merilo::sync, so the parallel tester
// schedules its threads itself and meets that window by search.
//
// Example:
//
//   counter::Counter<> c;
//   c.increment();   // 1
//   c.get();         // 1
#ifndef MERILO_EXAMPLES_COUNTER_COUNTER_HPP
#define MERILO_EXAMPLES_COUNTER_COUNTER_HPP

#include <atomic>
#include <cstdint>

#include <merilo/sync/sync.hpp>

namespace counter {

/// Seeded bugs, switched at compile time.
enum class Bug : std::uint8_t { none, lost_update };

/// A counter shared by several threads.
template <Bug bug = Bug::none>
class Counter {
 public:
  /// Adds one and returns the new value.
  std::int64_t increment() {
    if constexpr (bug == Bug::lost_update) {
      const std::int64_t seen = value_.load(std::memory_order_relaxed);
      value_.store(seen + 1, std::memory_order_relaxed);  // another increment may have come between
      return seen + 1;
    } else {
      return value_.fetch_add(1, std::memory_order_relaxed) + 1;
    }
  }

  /// The current value.
  [[nodiscard]] std::int64_t get() const { return value_.load(std::memory_order_relaxed); }

 private:
  merilo::sync::atomic<std::int64_t> value_{0};
};

}  // namespace counter

#endif  // MERILO_EXAMPLES_COUNTER_COUNTER_HPP
