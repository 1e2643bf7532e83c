// treiber.hpp — a lock-free (Treiber) stack over a fixed pool of nodes that
// are reused, and the ABA problem.
//
// The top of the stack is one atomic word: the index of the top node (plus
// one; 0 is empty) and, in the fixed stack, a tag that every successful
// compare-and-swap bumps. A pop reads the top, reads that node's next index
// and value, and swings the top to next with a compare-and-swap; a push
// takes a node from the pool, links it above the top and swings the top to
// it the same way. Popped nodes go back to the pool and are handed out again.
//
// `Stack<Bug::aba>` leaves the tag alone. A pop that read top = node n and
// next = m can be overtaken: another thread pops n, pushes a new value into
// the same node n (the pool hands it back), and the top is n again. The
// first pop's compare-and-swap cannot tell: it succeeds, swings the top to
// the stale next and returns n's old value, which was popped already. The
// tag makes the second compare-and-swap fail, so the pop reads again.
//
// The top is a merilo::sync::atomic, so under the parallel tester each load
// and compare-and-swap of it is a scheduling point and the overtaking is
// found by search. The nodes and their pool are examples::NodePool
// (common/node_pool.hpp): relaxed std::atomic fields (a node being reused
// may be read by a stale pop, which must not be a data race) and a
// std::mutex-guarded list that no scheduling point interrupts: neither is
// where the bug is, so neither adds schedules.
//
// Example:
//
//   treiber::Stack<> s;
//   s.push(4);
//   s.pop();   // 4
//   s.pop();   // std::nullopt (empty)
#ifndef MERILO_EXAMPLES_TREIBER_TREIBER_HPP
#define MERILO_EXAMPLES_TREIBER_TREIBER_HPP

#include <cstddef>
#include <cstdint>
#include <optional>

#include <common/node_pool.hpp>
#include <merilo/sync/sync.hpp>

namespace treiber {

/// Seeded bugs, switched at compile time.
enum class Bug : std::uint8_t { none, aba };

/// Nodes in the pool: the most items the stack holds.
inline constexpr std::size_t kNodes = 32;

/// A lock-free stack of integers shared by several threads.
template <Bug bug = Bug::none>
class Stack {
 public:
  /// Puts `value` on top. With every node in use (more than kNodes items)
  /// the push is dropped; the spec never pushes that many.
  void push(std::int32_t value) {
    const std::uint32_t n = pool_.take();
    if (n == 0) return;
    pool_.node(n).value.store(value, std::memory_order_relaxed);
    std::uint64_t old = top_.load();
    for (;;) {
      pool_.node(n).next.store(index(old), std::memory_order_relaxed);
      if (top_.compare_exchange_weak(old, word(n, old))) return;
    }
  }

  /// Removes and returns the top, or nothing when the stack is empty.
  std::optional<std::int32_t> pop() {
    std::uint64_t old = top_.load();
    for (;;) {
      const std::uint32_t n = index(old);
      if (n == 0) return std::nullopt;
      const std::uint32_t next = pool_.node(n).next.load(std::memory_order_relaxed);
      const std::int32_t value = pool_.node(n).value.load(std::memory_order_relaxed);
      // Under Bug::aba, n may have been popped and pushed again since `old`
      // was read, with another next: the swap below cannot tell.
      if (top_.compare_exchange_weak(old, word(next, old))) {
        pool_.give_back(n);
        return value;
      }
    }
  }

 private:
  /// The node index (plus one) in a top word.
  static std::uint32_t index(std::uint64_t top) { return static_cast<std::uint32_t>(top); }
  /// The top word naming node `n`, with the tag of `old` bumped (fixed) or
  /// kept (Bug::aba).
  static std::uint64_t word(std::uint32_t n, std::uint64_t old) {
    const std::uint64_t tag = (old >> 32U) + (bug == Bug::aba ? 0U : 1U);
    return (tag << 32U) | n;
  }

  merilo::sync::atomic<std::uint64_t> top_{0};
  examples::NodePool<kNodes> pool_;  // a LIFO: the last node given back is taken first
};

}  // namespace treiber

#endif  // MERILO_EXAMPLES_TREIBER_TREIBER_HPP
