// quiescent.hpp — a lock-free stack whose popped nodes are reused only when
// no pop is in flight (reclamation at quiescent points), and a seeded check
// of "no pop is in flight" made too early, whose ABA needs two preemptions.
//
// The top is one atomic word holding a node index (plus one; 0 is empty),
// with no tag: a pop reads the top and that node's next, then swings the
// top to next with a compare-and-swap, as in any Treiber stack. What keeps
// the untagged swap safe is reclamation. Every pop counts itself into
// `active` when it begins and out when it ends. A popped node is retired,
// not reused at once; a pop that finds, as it counts itself out, that it
// was the only pop in flight hands every retired node back to the pool. No
// pop can still hold such a node: a pop that read it from the top began
// before it was unlinked and has not ended, so it would have been counted.
//
// `Stack<Bug::alone_at_start>` decides whether it may hand the nodes back
// from the count it saw when it began. Another pop may begin after that
// and read the top node before this pop unlinks it; this pop then hands
// the node back, a push on this pop's thread takes it from the pool and
// puts it back on top, and the other pop's compare-and-swap succeeds on
// the reused node: it returns the value this pop returned already. Two
// threads must each be stopped inside a pop (this one after counting
// itself in, the other after reading the top), so the wrong answer needs
// two preemptions.
//
// The top and the count are merilo::sync::atomic, so under the parallel
// tester each load, swap and count is a scheduling point. The nodes and
// their free list are examples::NodePool (common/node_pool.hpp), as in the
// treiber example, and the retired list is guarded by a std::mutex: no
// scheduling point interrupts either, and neither is where the bug is.
//
// Example:
//
//   quiescent::Stack<> s;
//   s.push(4);
//   s.pop();   // 4
//   s.pop();   // std::nullopt (empty)
#ifndef MERILO_EXAMPLES_QUIESCENT_QUIESCENT_HPP
#define MERILO_EXAMPLES_QUIESCENT_QUIESCENT_HPP

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

#include <common/node_pool.hpp>
#include <merilo/sync/sync.hpp>

namespace quiescent {

/// Seeded bugs, switched at compile time.
enum class Bug : std::uint8_t { none, alone_at_start };

/// Nodes in the pool: the most items the stack holds.
inline constexpr std::size_t kNodes = 32;

/// A lock-free stack of integers shared by several threads, whose nodes
/// are reused once no pop that could hold them is in flight.
template <Bug bug = Bug::none>
class Stack {
 public:
  Stack() { retired_.reserve(kNodes); }

  /// Puts `value` on top. With every node in use or retired the push is
  /// dropped; the spec never pushes more than kNodes items.
  void push(std::int32_t value) {
    const std::uint32_t n = pool_.take();
    if (n == 0) return;
    pool_.node(n).value.store(value, std::memory_order_relaxed);
    std::uint32_t seen = top_.load();
    do {
      pool_.node(n).next.store(seen, std::memory_order_relaxed);
    } while (!top_.compare_exchange_strong(seen, n));
  }

  /// Removes and returns the top, or nothing when the stack is empty.
  std::optional<std::int32_t> pop() {
    const bool alone_at_start = active_.fetch_add(1) == 0;
    std::optional<std::int32_t> out;
    std::uint32_t seen = top_.load();
    while (seen != 0) {
      // Under Bug::alone_at_start, `seen` may have been popped, handed
      // back and pushed again since it was read: the swap cannot tell.
      const std::uint32_t next = pool_.node(seen).next.load(std::memory_order_relaxed);
      const std::int32_t value = pool_.node(seen).value.load(std::memory_order_relaxed);
      if (top_.compare_exchange_strong(seen, next)) {
        retire(seen);
        out = value;
        break;
      }
    }
    const bool alone_at_end = active_.fetch_sub(1) == 1;
    if (bug == Bug::alone_at_start ? alone_at_start : alone_at_end) reclaim();
    return out;
  }

 private:
  /// Sets popped node `n` aside until no pop can hold it.
  void retire(std::uint32_t n) {
    std::lock_guard lock(retired_mu_);
    retired_.push_back(n);
  }
  /// Hands every retired node back to the pool, the last retired to be
  /// taken first.
  void reclaim() {
    std::lock_guard lock(retired_mu_);
    for (const std::uint32_t n : retired_) pool_.give_back(n);
    retired_.clear();
  }

  merilo::sync::atomic<std::uint32_t> top_{0};
  merilo::sync::atomic<std::uint32_t> active_{0};  ///< Pops in flight.
  examples::NodePool<kNodes> pool_;  // a LIFO: the last node handed back is taken first
  std::mutex retired_mu_;
  std::vector<std::uint32_t> retired_;  // popped, not yet safe to reuse
};

}  // namespace quiescent

#endif  // MERILO_EXAMPLES_QUIESCENT_QUIESCENT_HPP
