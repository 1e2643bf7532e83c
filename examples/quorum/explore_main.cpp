// explore_main.cpp — `make explore` for the quorum register: the fixed
// register with six replicas explored to the end, then the seeded half
// quorum found.
#include <merilo/explore/explore.hpp>

#include <common/seeded_bug.hpp>
#include <quorum/system.hpp>

int main() {
  quorum::System<quorum::Bug::none, 6> fixed;
  const auto ok = merilo::explore::explore(
      fixed, {.max_states = 100'000, .require_complete = true, .name = "quorum"});
  quorum::System<quorum::Bug::half_quorum, 6> buggy;
  const bool found = examples::expect_seeded_bug(buggy, "quorum, seeded half quorum", 100'000);
  return ok.ok() && found ? 0 : 1;
}
