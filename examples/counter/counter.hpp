// counter.hpp — a shared counter, and the classic lost update.
//
// `Counter<Bug::none>` increments under its mutex: read and write happen in
// one critical section, so concurrent increments never overlap.
// `Counter<Bug::lost_update>` reads the value in one critical section and
// writes `read + 1` back in another: two threads that both read before
// either writes both return the same number, and one increment is lost.
// The buggy variant pauses between the read and the write (`kWindow`), so a
// test meets the bug in a few races instead of a few thousand.
//
// Example:
//
//   counter::Counter<> c;
//   c.increment();   // 1
//   c.get();         // 1
#ifndef MERILO_EXAMPLES_COUNTER_COUNTER_HPP
#define MERILO_EXAMPLES_COUNTER_COUNTER_HPP

#include <chrono>
#include <cstdint>
#include <mutex>
#include <thread>

namespace counter {

/// Seeded bugs, switched at compile time.
enum class Bug : std::uint8_t { none, lost_update };

/// The pause the buggy variant takes between its read and its write.
inline constexpr std::chrono::microseconds kWindow{500};

/// A counter shared by several threads.
template <Bug bug = Bug::none>
class Counter {
 public:
  /// Adds one and returns the new value.
  std::int64_t increment() {
    if constexpr (bug == Bug::lost_update) {
      std::int64_t seen = 0;
      {
        std::lock_guard lock(mu_);
        seen = value_;
      }
      std::this_thread::sleep_for(kWindow);  // the window another thread can slip into
      std::lock_guard lock(mu_);
      value_ = seen + 1;
      return seen + 1;
    } else {
      std::lock_guard lock(mu_);
      return ++value_;
    }
  }

  /// The current value.
  [[nodiscard]] std::int64_t get() const {
    std::lock_guard lock(mu_);
    return value_;
  }

 private:
  mutable std::mutex mu_;
  std::int64_t value_ = 0;
};

}  // namespace counter

#endif  // MERILO_EXAMPLES_COUNTER_COUNTER_HPP
