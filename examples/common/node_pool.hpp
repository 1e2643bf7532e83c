// node_pool.hpp — a fixed pool of linked-stack nodes for the lock-free stack
// examples (treiber, quiescent): nodes named by index plus one, handed out
// and taken back last-in first-out, so a node given back is the next taken.
//
// The lock-free stacks link nodes by index, so that a stale reader of a
// reused node reads a valid node rather than freed memory. A node's fields
// are relaxed std::atomic (that stale read must not be a data race), and the
// free list is guarded by a std::mutex that no merilo::sync scheduling point
// interrupts, so the pool adds no schedules to a controlled run: what it
// shows is the stack's own order of operations.
//
// Example:
//
//   examples::NodePool<32> pool;
//   const std::uint32_t n = pool.take();  // 0 when every node is in use
//   pool.node(n).value.store(4, std::memory_order_relaxed);
//   pool.give_back(n);                    // the next take() returns n
//
// NOTE: take and give_back may be called from any thread; node(n) is
// shared memory the caller orders.
#ifndef MERILO_EXAMPLES_COMMON_NODE_POOL_HPP
#define MERILO_EXAMPLES_COMMON_NODE_POOL_HPP

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace examples {

/// One node of a stack linked by index.
struct StackNode {
  std::atomic<std::int32_t> value{0};  ///< The item.
  std::atomic<std::uint32_t> next{0};  ///< Index plus one of the node below; 0 is none.
};

/// `N` nodes, named 1..N (0 is no node), free ones handed out last-in
/// first-out.
template <std::size_t N>
class NodePool {
 public:
  NodePool() {
    free_.reserve(N);
    for (std::size_t i = N; i > 0; --i) free_.push_back(static_cast<std::uint32_t>(i));
  }

  /// Node `n` (1..N).
  StackNode& node(std::uint32_t n) { return nodes_[n - 1]; }

  /// A free node's index plus one, or 0 when every node is in use.
  std::uint32_t take() {
    std::lock_guard lock(mu_);
    if (free_.empty()) return 0;
    const std::uint32_t n = free_.back();
    free_.pop_back();
    return n;
  }

  /// Returns node `n` to the pool, to be handed out next.
  void give_back(std::uint32_t n) {
    std::lock_guard lock(mu_);
    free_.push_back(n);
  }

 private:
  std::array<StackNode, N> nodes_;
  std::mutex mu_;
  std::vector<std::uint32_t> free_;  // a LIFO: the last node given back is taken first
};

}  // namespace examples

#endif  // MERILO_EXAMPLES_COMMON_NODE_POOL_HPP
