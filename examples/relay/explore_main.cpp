// explore_main.cpp — `make explore` for the relay: the fixed relay explored
// to the end, then the seeded short sequence found.
#include <cstdio>

#include <merilo/explore/explore.hpp>
#include <merilo/explore/replay.hpp>

#include <relay/system.hpp>

int main() {
  relay::System<> fixed;
  const auto ok = merilo::explore::explore(
      fixed, {.max_states = 100'000, .require_complete = true, .name = "relay"});
  relay::System<relay::Bug::short_sequence> buggy;
  const auto found = merilo::explore::explore(
      buggy, {.max_states = 100'000, .name = "relay, seeded short sequence"});
  if (found.violation.found()) {
    std::fputs(merilo::explore::format(buggy, found.violation.trace).c_str(), stderr);
  }
  return ok.ok() && found.violation.found() ? 0 : 1;
}
