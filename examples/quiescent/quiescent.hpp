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
// tester each load, swap and count is a scheduling point. The nodes'
// fields are relaxed std::atomic (a stale pop may read a reused node,
// which must not be a data race) and the pool is a std::mutex-guarded
// list that no scheduling point interrupts.
//
// Example:
//
//   quiescent::Stack<> s;
//   s.push(4);
//   s.pop();   // 4
//   s.pop();   // std::nullopt (empty)
#ifndef MERILO_EXAMPLES_QUIESCENT_QUIESCENT_HPP
#define MERILO_EXAMPLES_QUIESCENT_QUIESCENT_HPP

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

#include <merilo/parallel/sync.hpp>

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
  Stack() {
    free_.reserve(kNodes);
    retired_.reserve(kNodes);
    for (std::uint32_t i = kNodes; i > 0; --i) free_.push_back(i);
  }

  /// Puts `value` on top. With every node in use or retired the push is
  /// dropped; the spec never pushes more than kNodes items.
  void push(std::int32_t value) {
    const std::uint32_t n = take();
    if (n == 0) return;
    node(n).value.store(value, std::memory_order_relaxed);
    std::uint32_t seen = top_.load();
    do {
      node(n).next.store(seen, std::memory_order_relaxed);
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
      const std::uint32_t next = node(seen).next.load(std::memory_order_relaxed);
      const std::int32_t value = node(seen).value.load(std::memory_order_relaxed);
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
  struct Node {
    std::atomic<std::int32_t> value{0};
    std::atomic<std::uint32_t> next{0};  ///< Index plus one of the node below; 0 is none.
  };

  Node& node(std::uint32_t n) { return nodes_[n - 1]; }

  /// A free node's index plus one, or 0 when none is free.
  std::uint32_t take() {
    std::lock_guard lock(pool_mu_);
    if (free_.empty()) return 0;
    const std::uint32_t n = free_.back();
    free_.pop_back();
    return n;
  }
  /// Sets popped node `n` aside until no pop can hold it.
  void retire(std::uint32_t n) {
    std::lock_guard lock(pool_mu_);
    retired_.push_back(n);
  }
  /// Hands every retired node back to the pool, the last retired to be
  /// taken first.
  void reclaim() {
    std::lock_guard lock(pool_mu_);
    free_.insert(free_.end(), retired_.begin(), retired_.end());
    retired_.clear();
  }

  merilo::sync::atomic<std::uint32_t> top_{0};
  merilo::sync::atomic<std::uint32_t> active_{0};  ///< Pops in flight.
  std::array<Node, kNodes> nodes_;
  std::mutex pool_mu_;
  std::vector<std::uint32_t> free_;     // a LIFO: the last node handed back is taken first
  std::vector<std::uint32_t> retired_;  // popped, not yet safe to reuse
};

}  // namespace quiescent

#endif  // MERILO_EXAMPLES_QUIESCENT_QUIESCENT_HPP
