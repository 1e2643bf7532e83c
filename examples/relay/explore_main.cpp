// explore_main.cpp — `make explore` for the relay: the fixed relay explored
// to the end, then the seeded short sequence found (an expected finding,
// printed with its trace).
#include <merilo/explore/explore.hpp>

#include <common/seeded_bug.hpp>
#include <relay/system.hpp>

int main() {
  relay::System<> fixed;
  const auto ok = merilo::explore::explore(
      fixed, {.max_states = 100'000, .require_complete = true, .name = "relay"});
  relay::System<relay::Bug::short_sequence> buggy;
  const bool found = examples::expect_seeded_bug(buggy, "relay, seeded short sequence", 100'000);
  return ok.ok() && found ? 0 : 1;
}
