// spec.hpp — the quiescent stack's parallel spec: the stack example's spec
// (pushes of 1 to 9 and pops against a fixed-capacity array model), pointed
// at the lock-free stack with reclamation.
#ifndef MERILO_EXAMPLES_QUIESCENT_SPEC_HPP
#define MERILO_EXAMPLES_QUIESCENT_SPEC_HPP

#include <cstddef>

#include <quiescent/quiescent.hpp>
#include <stack/spec.hpp>

namespace quiescent {

static_assert(kNodes >= static_cast<std::size_t>(stack::kCapacity),
              "the pool must hold every item the spec can push");

/// The spec of `Stack<bug>`: stack::SpecOf, the same model and commands.
template <Bug bug = Bug::none>
using Spec = stack::SpecOf<Stack<bug>>;

}  // namespace quiescent

#endif  // MERILO_EXAMPLES_QUIESCENT_SPEC_HPP
