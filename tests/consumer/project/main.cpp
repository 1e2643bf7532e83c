// Explores two counters 0..2 and checks the closed-form answer: 9 worlds.
// (The consumer's tuple is the first counter's value: 3 tuples.)
#include <merilo/explore/explore.hpp>
#include <merilo/explore/replay.hpp>

#include <cstdio>

#include "counters.hpp"

namespace ex = merilo::explore;

int main() {
  Counters sys;
  const ex::ExploreResult r = ex::explore(sys, {.max_states = 100, .require_complete = true});
  const bool replayed = ex::replay(sys, {0, 1, 1}).ok();
  if (!r.ok() || r.states != 9 || r.depth != 4 || !replayed) {
    std::printf("consumer: unexpected result: %s\n", r.summary().c_str());
    return 1;
  }
  std::printf("consumer: ok\n");
  return 0;
}
