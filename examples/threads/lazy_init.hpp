// lazy_init.hpp — double-checked lazy initialisation, published with a
// relaxed pointer.
//
// `LazyConfig<fixed>::get()` makes its `Config` on first use: a fast path
// reads the published pointer without the lock, and only a caller that
// finds it null takes the mutex, checks again and builds the object. The
// seeded version (`fixed == false`) loads and stores that pointer relaxed.
// The mutex orders the builders, but the fast path does not take it: a
// thread that sees the pointer through a relaxed load is not guaranteed to
// see the fields written before it was stored, so it can read a `port` of
// 0. The fixed twin stores the pointer with release and loads it with
// acquire, which makes the fields visible to whoever sees the pointer.
//
// The fields are `merilo::sync::atomic`s written relaxed: `sync::model`
// tracks atomics, not plain variables (docs/threads.md), so that is how
// the stale read is made visible to it. Real code would have plain fields
// and the same bug.
//
// Example:
//
//   threads::LazyConfig<true> config;
//   config.get().port.load(std::memory_order_relaxed);  // 8080
#ifndef MERILO_EXAMPLES_THREADS_LAZY_INIT_HPP
#define MERILO_EXAMPLES_THREADS_LAZY_INIT_HPP

#include <atomic>  // std::memory_order
#include <mutex>   // std::lock_guard

#include <merilo/sync/model.hpp>

namespace threads {

/// The object made on first use.
struct Config {
  merilo::sync::atomic<int> port{0};     ///< 8080 once built.
  merilo::sync::atomic<int> retries{0};  ///< 3 once built.
};

/// A `Config` built by the first caller of `get()` (double-checked locking).
template <bool fixed>
class LazyConfig {
 public:
  /// The configuration, built on the first call.
  const Config& get() {
    constexpr auto publish = fixed ? std::memory_order_release : std::memory_order_relaxed;
    constexpr auto observe = fixed ? std::memory_order_acquire : std::memory_order_relaxed;
    const Config* seen = instance_.load(observe);  // the fast path: no lock
    if (seen == nullptr) {
      const std::lock_guard lock(mu_);
      seen = instance_.load(std::memory_order_relaxed);  // the lock orders the builders
      if (seen == nullptr) {
        storage_.port.store(8080, std::memory_order_relaxed);
        storage_.retries.store(3, std::memory_order_relaxed);
        instance_.store(&storage_, publish);  // seeded: relaxed, so the fields may lag
        seen = &storage_;
      }
    }
    return *seen;
  }

 private:
  merilo::sync::atomic<const Config*> instance_{nullptr};
  merilo::sync::mutex mu_;
  Config storage_;
};

/// The test body: two threads ask for the configuration at once, and both
/// must see it whole.
template <bool fixed>
void lazy_init_body() {
  LazyConfig<fixed> config;
  const auto use = [&config] {
    const Config& c = config.get();
    MERILO_SYNC_ASSERT(c.port.load(std::memory_order_relaxed) == 8080);
  };
  merilo::sync::thread other(use);
  use();
  other.join();
}

}  // namespace threads

#endif  // MERILO_EXAMPLES_THREADS_LAZY_INIT_HPP
