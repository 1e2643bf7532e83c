// explore_main.cpp — `make explore` for the watchdog: the fixed watchdog
// explored to the end, then the seeded narrow generation found.
#include <cstdio>

#include <merilo/explore/explore.hpp>
#include <merilo/explore/replay.hpp>

#include <watchdog/system.hpp>

int main() {
  watchdog::System<> fixed;
  const auto ok = merilo::explore::explore(
      fixed, {.max_states = 50'000, .require_complete = true, .name = "watchdog"});
  watchdog::System<watchdog::Bug::narrow_generation> buggy;
  const auto found = merilo::explore::explore(
      buggy, {.max_states = 50'000, .name = "watchdog, seeded narrow generation"});
  if (found.violation.found()) {
    std::fputs(merilo::explore::format(buggy, found.violation.trace).c_str(), stderr);
  }
  return ok.ok() && found.violation.found() ? 0 : 1;
}
