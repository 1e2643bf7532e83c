// stack.hpp — a stack shared by several threads, and a pop that reads the
// top and removes it in two separate lock sections.
//
// `Stack<Bug::none>` pops under one critical section. `Stack<Bug::split_pop>`
// reads the top under its mutex, lets go, and shrinks the stack under it
// again: two pops that both read before either shrinks return the same
// item, and the item below it is thrown away unseen. No pause widens the
// window: the mutex is a merilo::sync::mutex, so under the parallel tester
// every lock and unlock is a scheduling point and the window is met by
// search.
//
// Example:
//
//   stack::Stack<> s;
//   s.push(4);
//   s.pop();   // 4
//   s.pop();   // std::nullopt (empty)
#ifndef MERILO_EXAMPLES_STACK_STACK_HPP
#define MERILO_EXAMPLES_STACK_STACK_HPP

#include <cstdint>
#include <mutex>  // std::lock_guard
#include <optional>
#include <vector>

#include <merilo/sync/sync.hpp>

namespace stack {

/// Seeded bugs, switched at compile time.
enum class Bug : std::uint8_t { none, split_pop };

/// A stack of integers shared by several threads.
template <Bug bug = Bug::none>
class Stack {
 public:
  /// Puts `value` on top.
  void push(std::int32_t value) {
    std::lock_guard lock(mu_);
    items_.push_back(value);
  }

  /// Removes and returns the top, or nothing when the stack is empty.
  std::optional<std::int32_t> pop() {
    if constexpr (bug == Bug::split_pop) {
      std::int32_t top = 0;
      {
        std::lock_guard lock(mu_);
        if (items_.empty()) return std::nullopt;
        top = items_.back();
      }
      std::lock_guard lock(mu_);  // another pop may have read the same top in between
      if (!items_.empty()) items_.pop_back();
      return top;
    } else {
      std::lock_guard lock(mu_);
      if (items_.empty()) return std::nullopt;
      const std::int32_t top = items_.back();
      items_.pop_back();
      return top;
    }
  }

 private:
  merilo::sync::mutex mu_;
  std::vector<std::int32_t> items_;
};

}  // namespace stack

#endif  // MERILO_EXAMPLES_STACK_STACK_HPP
