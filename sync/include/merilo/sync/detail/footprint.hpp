// merilo/sync/detail/footprint.hpp — what one scheduling step touches, and
// which two steps of different threads do not commute.
//
// The partial-order reduction (dpor.hpp) and every other strategy that
// reasons about independence see a step only as its footprint: an access
// kind and the object it touches. Two steps of different threads are
// *dependent* when running them in the other order could change what
// either does or what the program computes; otherwise they commute, and
// schedules that differ only in their order are one Mazurkiewicz trace.
//
// The relation errs on the side of dependence: calling two steps dependent
// when they commute costs executions, never a missed behaviour.
//
// NOTE: an unlock and a later lock of the same mutex are dependent (the
// unlock enables the lock), but they never occur in the other order, so
// the reduction does not try to reverse them: the pair that decides who
// enters first is the two locks, and they are what it reverses
// (`is_release_of`, dpor.cpp). A try_lock observes the mutex, so it
// depends on every operation of it.
#ifndef MERILO_SYNC_DETAIL_FOOTPRINT_HPP
#define MERILO_SYNC_DETAIL_FOOTPRINT_HPP

#include <bit>      // std::popcount, std::countr_zero: ThreadSet
#include <cstddef>  // std::size_t
#include <cstdint>  // std::uint8_t, std::uint32_t, std::uint64_t

namespace merilo::sync::detail {

/// The most threads one controlled execution runs, the body included: the
/// width of a `ThreadSet`. `sync::model` refuses a thread beyond it
/// (`sync.too_many_threads`), and the memory model's vector clocks, the
/// reduction's sets and every strategy are sized by it.
inline constexpr std::size_t kMaxThreads = 128;

/// A set of threads 0..kMaxThreads-1: bit t is thread t. Two 64-bit words
/// rather than std::bitset, so the operations a scheduler needs at every
/// step (the lowest member, the first member at or after a thread, the
/// count) are a count-zeros instruction or two.
class ThreadSet {
 public:
  constexpr ThreadSet() noexcept = default;
  /// The set holding thread `t` alone.
  [[nodiscard]] static constexpr ThreadSet of(unsigned t) noexcept {
    ThreadSet s;
    s.insert(t);
    return s;
  }
  /// Threads 0..n-1.
  [[nodiscard]] static constexpr ThreadSet first(unsigned n) noexcept {
    ThreadSet s;
    for (unsigned w = 0; w < kWords; ++w) {
      const unsigned lo = w * 64U;
      if (n >= lo + 64U) {
        s.w_[w] = ~std::uint64_t{0};
      } else if (n > lo) {
        s.w_[w] = (std::uint64_t{1} << (n - lo)) - 1U;
      }
    }
    return s;
  }
  /// Whether thread `t` is a member (false beyond kMaxThreads).
  [[nodiscard]] constexpr bool contains(unsigned t) const noexcept {
    return t < kMaxThreads && ((w_[t / 64U] >> (t % 64U)) & 1U) != 0;
  }
  /// Adds thread `t` (< kMaxThreads).
  constexpr void insert(unsigned t) noexcept { w_[t / 64U] |= std::uint64_t{1} << (t % 64U); }
  /// Removes thread `t` (< kMaxThreads).
  constexpr void erase(unsigned t) noexcept { w_[t / 64U] &= ~(std::uint64_t{1} << (t % 64U)); }
  /// No member.
  [[nodiscard]] constexpr bool empty() const noexcept { return (w_[0] | w_[1]) == 0; }
  /// How many members.
  [[nodiscard]] constexpr unsigned count() const noexcept {
    return static_cast<unsigned>(std::popcount(w_[0]) + std::popcount(w_[1]));
  }
  /// The lowest member, or kMaxThreads when empty.
  [[nodiscard]] constexpr unsigned lowest() const noexcept {
    if (w_[0] != 0) return static_cast<unsigned>(std::countr_zero(w_[0]));
    if (w_[1] != 0) return 64U + static_cast<unsigned>(std::countr_zero(w_[1]));
    return static_cast<unsigned>(kMaxThreads);
  }
  /// The lowest member at or after `t`, or kMaxThreads when none.
  [[nodiscard]] constexpr unsigned from(unsigned t) const noexcept {
    if (t >= kMaxThreads) return static_cast<unsigned>(kMaxThreads);
    return (*this & ~first(t)).lowest();
  }
  /// The first member at or after `t`, cyclically (wrapping to the lowest),
  /// or kMaxThreads when empty.
  [[nodiscard]] constexpr unsigned next_from(unsigned t) const noexcept {
    const unsigned a = from(t);
    return a < kMaxThreads ? a : lowest();
  }
  /// The `k`-th member in increasing order, or kMaxThreads when there are
  /// not that many.
  [[nodiscard]] constexpr unsigned nth(unsigned k) const noexcept {
    const auto low = static_cast<unsigned>(std::popcount(w_[0]));
    std::uint64_t w = w_[0];
    unsigned base = 0;
    if (k >= low) {
      k -= low;
      w = w_[1];
      base = 64;
    }
    for (; k > 0 && w != 0; --k) w &= w - 1U;  // drop the lowest member k times
    return w == 0 ? static_cast<unsigned>(kMaxThreads)
                  : base + static_cast<unsigned>(std::countr_zero(w));
  }
  /// How many members are below `t` (the rank of `t` among the members).
  [[nodiscard]] constexpr unsigned rank(unsigned t) const noexcept {
    return (*this & first(t)).count();
  }
  /// Members of both.
  [[nodiscard]] friend constexpr ThreadSet operator&(ThreadSet a, ThreadSet b) noexcept {
    a.w_[0] &= b.w_[0];
    a.w_[1] &= b.w_[1];
    return a;
  }
  /// Members of either.
  [[nodiscard]] friend constexpr ThreadSet operator|(ThreadSet a, ThreadSet b) noexcept {
    a.w_[0] |= b.w_[0];
    a.w_[1] |= b.w_[1];
    return a;
  }
  /// Every thread that is not a member.
  [[nodiscard]] constexpr ThreadSet operator~() const noexcept {
    ThreadSet s;
    s.w_[0] = ~w_[0];
    s.w_[1] = ~w_[1];
    return s;
  }
  /// Adds the members of `o`.
  constexpr ThreadSet& operator|=(ThreadSet o) noexcept { return *this = *this | o; }
  /// Keeps the members also in `o`.
  constexpr ThreadSet& operator&=(ThreadSet o) noexcept { return *this = *this & o; }
  /// Same members.
  friend constexpr bool operator==(ThreadSet, ThreadSet) noexcept = default;

 private:
  static constexpr unsigned kWords = 2;
  static_assert(kMaxThreads == kWords * 64, "ThreadSet holds kMaxThreads bits in two words");
  std::uint64_t w_[kWords] = {0, 0};
};

/// How a step touches its object.
enum class Access : std::uint8_t {
  none,           ///< Touches nothing shared (a yield, a thread's end): commutes with all.
  read,           ///< Reads the object (an atomic load).
  write,          ///< Writes it (a store, a read-modify-write, a compare-exchange).
  lock,           ///< Acquires a mutex exclusively.
  unlock,         ///< Releases an exclusive hold.
  lock_shared,    ///< Acquires a shared hold.
  unlock_shared,  ///< Releases a shared hold.
  try_lock,       ///< Tries to acquire: observes the mutex's state.
  wait,           ///< Starts waiting to be notified (a condition variable or atomic wait).
  notify,         ///< Notifies the waiters of the object.
  global,  ///< Depends on every step of every other thread (a seq_cst fence, a call boundary).
};

/// One step as the reduction sees it: an access to an object. Objects are
/// numbered from 1 in order of first use within an execution, so the same
/// schedule gives the same numbers; 0 means no object.
struct Footprint {
  Access access = Access::none;  ///< How it touches the object.
  std::uint32_t object = 0;      ///< Which object (1-based), or 0.
  /// A seq_cst atomic access: seq_cst accesses are in one total order,
  /// which the memory model checks across locations, so two of them are
  /// dependent whatever they touch.
  bool sc = false;

  friend bool operator==(const Footprint&, const Footprint&) = default;
};

/// Whether steps `a` and `b`, of two different threads, may not commute.
[[nodiscard]] constexpr bool dependent(Footprint a, Footprint b) noexcept {
  if (a.access == Access::global || b.access == Access::global) {
    return a.access != Access::none && b.access != Access::none;
  }
  if (a.access == Access::none || b.access == Access::none) return false;
  if (a.sc && b.sc) return true;
  if (a.object != b.object) return false;
  // Order the pair so that each case is written once.
  if (static_cast<std::uint8_t>(a.access) > static_cast<std::uint8_t>(b.access)) {
    const Footprint t = a;
    a = b;
    b = t;
  }
  switch (a.access) {
    case Access::read:
      return b.access != Access::read;  // reads commute with reads only
    case Access::write:
      return true;
    case Access::lock:  // lock < unlock < lock_shared < unlock_shared < try_lock
      return b.access == Access::lock || b.access == Access::unlock ||
             b.access == Access::lock_shared || b.access == Access::unlock_shared ||
             b.access == Access::try_lock;
    case Access::unlock:  // an exclusive release enables shared holds too
      return b.access == Access::lock_shared || b.access == Access::try_lock;
    case Access::unlock_shared:
      return b.access == Access::try_lock;
    case Access::lock_shared:  // shared holds commute with each other
      return b.access == Access::try_lock;
    case Access::try_lock:
      return b.access == Access::try_lock;
    case Access::wait:
    case Access::notify:
      // wait-wait: a notify_one wakes the first to wait; wait-notify: the
      // waiter is woken or not.
      return b.access == Access::wait || b.access == Access::notify;
    case Access::none:
    case Access::global:
      return false;  // handled above
  }
  return true;
}

/// Whether `a` releases the mutex that `b` acquires: an order the
/// reduction never reverses (the acquisition waited for the release).
[[nodiscard]] constexpr bool is_release_of(Footprint a, Footprint b) noexcept {
  return a.object == b.object && a.object != 0 &&
         (a.access == Access::unlock || a.access == Access::unlock_shared) &&
         (b.access == Access::lock || b.access == Access::lock_shared);
}

}  // namespace merilo::sync::detail

#endif  // MERILO_SYNC_DETAIL_FOOTPRINT_HPP
