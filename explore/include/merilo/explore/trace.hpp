// merilo/explore/trace.hpp — a trace: the kinds taken from `reset()`.
//
// A `Trace` is how merilo hands you a counterexample, and all it takes to
// reproduce a world: `reset()` the system, then `apply` each kind in order.
// The explorer reports shortest traces, the fuzz runner the trace its input
// took, and replay.hpp follows, prints and pins them.
//
// Example:
//
//   merilo::explore::Trace t{0, 1, 1};  // coin, push, push
//   std::string text = merilo::explore::to_string(t);  // "{0, 1, 1}"
#ifndef MERILO_EXPLORE_TRACE_HPP
#define MERILO_EXPLORE_TRACE_HPP

#include <cstddef>  // std::size_t
#include <string>   // to_string
#include <vector>   // Trace

namespace merilo::explore {

/// The kinds taken from the initial world, in order (a kind is an index in
/// [0, kinds()), see system.hpp).
using Trace = std::vector<std::size_t>;

/// "{0, 1, 1}": the trace as a C++ initializer, as pinned tests spell it.
[[nodiscard]] std::string to_string(const Trace& trace);

}  // namespace merilo::explore

#endif  // MERILO_EXPLORE_TRACE_HPP
