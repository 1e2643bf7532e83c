// explore_main.cpp — `make explore` for TwoPhase: 5 RMs (8,832 worlds), the
// same under the RMs' symmetry (314 groups), and the seeded early commit,
// which breaks the invariant (an expected finding, printed with its trace).
#include <merilo/explore/explore.hpp>

#include <common/seeded_bug.hpp>
#include <tla_twophase/system.hpp>

int main() {
  tla_twophase::System<5> sys;
  const auto r = merilo::explore::explore(
      sys, {.max_states = 100'000, .require_complete = true, .name = "tla_twophase 5 RMs"});
  tla_twophase::System<5, tla_twophase::Bug::none, tla_twophase::Symmetry::rms> symmetric;
  const auto sym = merilo::explore::explore(
      symmetric,
      {.max_states = 100'000, .require_complete = true, .name = "tla_twophase 5 RMs, symmetry"});
  tla_twophase::System<5, tla_twophase::Bug::early_commit> buggy;
  const bool found =
      examples::expect_seeded_bug(buggy, "tla_twophase 5 RMs, seeded early commit", 100'000);
  return r.ok() && r.states == 8'832 && sym.ok() && sym.states == 314 && found ? 0 : 1;
}
