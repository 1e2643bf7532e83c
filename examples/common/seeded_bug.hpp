// seeded_bug.hpp — how `make explore` reports a variant with a seeded bug.
//
// A seeded bug is there on purpose, to show that merilo finds it, so its
// violation is the expected result of the search, not a failure. The plain
// summary line ("... violation=invariant") reads like a failure to a
// newcomer; this prints the finding as what it is, explains why the trace
// is one step longer than the depth, and shows the trace:
//
//   merilo: mutex, seeded duplicate grant: expected finding (seeded bug): invariant "at most
//     one client holds the lock" at step 6: 2 clients hold it
//     (depth=5: every world within 5 steps was checked and is clean; the bug is 6 steps away,
//     in the next level, which is why the trace is longer than the depth)
//   #1 c0 wants the lock | ...
#ifndef MERILO_EXAMPLES_COMMON_SEEDED_BUG_HPP
#define MERILO_EXAMPLES_COMMON_SEEDED_BUG_HPP

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

#include <merilo/explore/explore.hpp>
#include <merilo/explore/replay.hpp>

namespace examples {

/// Explores `sys`, which holds a seeded bug, and prints the finding (or that
/// it was missed) to stderr. Returns whether the search found a violation.
template <class S>
bool expect_seeded_bug(S& sys, std::string_view name, std::size_t max_states) {
  const merilo::explore::ExploreResult r =
      merilo::explore::explore(sys, {.max_states = max_states, .quiet = true});
  const std::string label(name);
  if (!r.error.empty() || !r.violation.found()) {
    std::fprintf(stderr, "merilo: %s: MISSED the seeded bug (this is a failure): %s\n",
                 label.c_str(), r.summary().c_str());
    return false;
  }
  const std::size_t steps = r.violation.trace.size();
  std::fprintf(stderr, "merilo: %s: expected finding (seeded bug): %s\n", label.c_str(),
               r.violation.summary().c_str());
  if (steps > r.depth) {
    std::fprintf(stderr,
                 "  (depth=%zu: every world within %zu steps was checked and is clean; the bug "
                 "is %zu steps away, in the next level, which is why the trace is longer than "
                 "the depth)\n",
                 r.depth, r.depth, steps);
  }
  std::fputs(merilo::explore::format(sys, r.violation.trace).c_str(), stderr);
  return true;
}

}  // namespace examples

#endif  // MERILO_EXAMPLES_COMMON_SEEDED_BUG_HPP
