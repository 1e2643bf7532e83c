// stack_aba.hpp — the least case of an ABA in a lock-free stack over reused
// nodes (the treiber and quiescent examples), as their tests assert it.
//
// A push of a in the prefix; one branch pops, the other pops a and pushes
// another value b, which lands in the node a was in; the lone pop's
// compare-and-swap then succeeds on the reused node and returns a again.
// The branches may be either way round. Values are as drawn (the shrinker
// keeps them), so the test names the form, not the numbers.
//
// Example:
//
//   EXPECT_TRUE(examples::is_least_aba_case(failure.shrunk)) << report(failure);
#ifndef MERILO_EXAMPLES_COMMON_STACK_ABA_HPP
#define MERILO_EXAMPLES_COMMON_STACK_ABA_HPP

#include <merilo/parallel/parallel.hpp>
#include <stack/spec.hpp>

namespace examples {

/// Whether `c` is "push a | pop | pop, push b" (branches in either order)
/// with b a push of a value other than a's.
inline bool is_least_aba_case(const merilo::parallel::Case<stack::Op>& c) {
  if (c.prefix.size() != 1 || c.branches.size() != 2) return false;
  const stack::Op a = c.prefix[0];
  const stack::Op pop{};
  const bool first_longer = c.branches[0].size() == 2;
  const auto& lone = first_longer ? c.branches[1] : c.branches[0];
  const auto& longer = first_longer ? c.branches[0] : c.branches[1];
  if (lone.size() != 1 || longer.size() != 2) return false;
  const stack::Op b = longer[1];
  return a.push && lone[0] == pop && longer[0] == pop && b.push && b.value != a.value;
}

}  // namespace examples

#endif  // MERILO_EXAMPLES_COMMON_STACK_ABA_HPP
