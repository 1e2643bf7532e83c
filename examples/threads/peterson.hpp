// peterson.hpp — Peterson's mutual exclusion for two threads, written with
// release stores and acquire loads where it needs sequential consistency.
//
// To enter, thread `me` raises its flag, gives the turn to the other, then
// looks: it may enter unless the other's flag is up and the turn is the
// other's. Under sequential consistency one of the two always sees the
// other's flag. With release/acquire (`fixed == false`) it need not: each
// thread's store of its own flag and its load of the other's are the
// store-buffering shape, and the C++ memory model (like x86, ARM and POWER
// hardware) lets both loads read the old `false`, so both threads enter.
// Acquire/release orders a thread's earlier accesses before a later store
// and its later accesses after an earlier load; it never orders a store
// before a later load. The fixed twin makes every access seq_cst, which
// does.
//
// The lock here tries once and gives up instead of spinning (a real one
// would loop on `merilo::sync::this_thread::yield()`): each thread either
// enters or backs off, so every execution is short and finite. Mutual
// exclusion does not depend on the retry.
//
// Example:
//
//   threads::Peterson<true> lock;
//   if (lock.try_lock(0)) lock.unlock(0);
#ifndef MERILO_EXAMPLES_THREADS_PETERSON_HPP
#define MERILO_EXAMPLES_THREADS_PETERSON_HPP

#include <array>    // the flags
#include <atomic>   // std::memory_order
#include <cstddef>  // std::size_t

#include <merilo/sync/model.hpp>

namespace threads {

/// Peterson's lock for threads 0 and 1, with one attempt per `try_lock`.
template <bool fixed>
class Peterson {
 public:
  /// Thread `me` (0 or 1) tries to enter; true if it holds the lock.
  bool try_lock(int me) {
    const int other = 1 - me;
    flag_[index(me)].store(true, kStore);
    turn_.store(other, kStore);
    const bool must_wait = flag_[index(other)].load(kLoad) && turn_.load(kLoad) == other;
    if (must_wait) {
      flag_[index(me)].store(false, kStore);  // back off
      return false;
    }
    return true;
  }

  /// Thread `me` leaves.
  void unlock(int me) { flag_[index(me)].store(false, kStore); }

 private:
  static constexpr auto kStore = fixed ? std::memory_order_seq_cst : std::memory_order_release;
  static constexpr auto kLoad = fixed ? std::memory_order_seq_cst : std::memory_order_acquire;
  static std::size_t index(int who) { return who == 0 ? 0 : 1; }

  std::array<merilo::sync::atomic<bool>, 2> flag_{};  ///< Who wants in.
  merilo::sync::atomic<int> turn_{0};                 ///< Who yields.
};

/// The test body: the body (thread 0) and one thread (1) each try the lock
/// once; whoever gets it counts itself in, checks it is alone, and leaves.
template <bool fixed>
void peterson_body() {
  Peterson<fixed> lock;
  merilo::sync::atomic<int> inside{0};
  const auto attempt = [&](int me) {
    if (lock.try_lock(me)) {
      MERILO_SYNC_ASSERT(inside.fetch_add(1, std::memory_order_relaxed) == 0);
      inside.fetch_sub(1, std::memory_order_relaxed);
      lock.unlock(me);
    }
  };
  merilo::sync::thread second([&] { attempt(1); });
  attempt(0);
  second.join();
}

}  // namespace threads

#endif  // MERILO_EXAMPLES_THREADS_PETERSON_HPP
