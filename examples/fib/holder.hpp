// holder.hpp — the trampoline: the loop that holds a `fib::Fib` and fires
// it until the call returns.
//
// A tail-recursive function run on a machine needs no call stack: each
// `fire` evaluates one call and becomes the next, and the holder only loops.
// The loop ends because every tail call lowers n by one, so F(n) takes
// exactly n + 1 fires (or fewer, when a sum is refused).
//
//   const fib::Computed c = fib::compute(90);
//   if (!c.error.empty()) std::fputs(c.error.c_str(), stderr);
//   // else c.value is F(90)
#ifndef MERILO_EXAMPLES_FIB_HOLDER_HPP
#define MERILO_EXAMPLES_FIB_HOLDER_HPP

#include <cstdint>
#include <string>

#include <fib/fib.hpp>

namespace fib {

/// What `compute` returns.
struct Computed {
  Number value{};           ///< F(n), when `error` is empty.
  std::uint64_t fires = 0;  ///< How many times the machine was fired.
  std::string error;        ///< Why there is no value ("" when there is one).
};

/// F(n), computed by firing `Fib::call(n)` until it returns.
[[nodiscard]] inline Computed compute(std::uint64_t n) {
  Computed out;
  Fib m = Fib::call(n);
  while (m.state() == State::calling) {
    const auto [next, actions, outcome] = m.fire(Event::step);
    ++out.fires;
    if (auto refusal = fsm::err(outcome)) {
      out.error = "F(" + std::to_string(n) + ") cannot be computed in " +
                  std::to_string(Number::kBits) +
                  " bits: the step at n = " + std::to_string(m.n()) + " was " +
                  std::string(refusal.what()) + " because F(" + std::to_string(n - m.n() + 2) +
                  ") does not fit";
      return out;
    }
    m = next;
  }
  out.value = m.result();
  return out;
}

}  // namespace fib

#endif  // MERILO_EXAMPLES_FIB_HOLDER_HPP
