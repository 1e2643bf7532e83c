// explore_main.cpp — `make explore` for the watchdog: the fixed watchdog
// explored to the end, then the seeded narrow generation found.
#include <merilo/explore/explore.hpp>

#include <common/seeded_bug.hpp>
#include <watchdog/system.hpp>

int main() {
  watchdog::System<> fixed;
  const auto ok = merilo::explore::explore(
      fixed, {.max_states = 50'000, .require_complete = true, .name = "watchdog"});
  watchdog::System<watchdog::Bug::narrow_generation> buggy;
  const bool found =
      examples::expect_seeded_bug(buggy, "watchdog, seeded narrow generation", 50'000);
  return ok.ok() && found ? 0 : 1;
}
