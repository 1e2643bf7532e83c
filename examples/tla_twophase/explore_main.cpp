// explore_main.cpp — `make explore` for TwoPhase: 5 RMs (8,832 worlds), the
// same under the RMs' symmetry (314 groups), and the seeded early commit,
// which breaks the invariant (an expected finding, printed with its trace).
//
// `tla_twophase_explore --simulate SEED [WALKS [DEPTH]]` runs seeded random
// walks instead (merilo/explore/simulate.hpp) at 12 RMs, a space no search
// here finishes: the fixed protocol must pass them, and the seeded early
// commit must be found, its trace shortened and printed.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include <merilo/explore/explore.hpp>
#include <merilo/explore/replay.hpp>
#include <merilo/explore/simulate.hpp>

#include <common/seeded_bug.hpp>
#include <tla_twophase/system.hpp>

namespace {

int explore_all() {
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

// A positive number from argv, or 0 when it is not one.
std::uint64_t number(const char* text) {
  char* end = nullptr;
  const unsigned long long n = std::strtoull(text, &end, 10);
  return end == text || *end != '\0' || text[0] == '-' ? 0 : n;
}

int simulate_all(std::uint64_t seed, std::size_t walks, std::size_t depth) {
  merilo::explore::SimulateOptions options{.walks = walks, .max_depth = depth, .seed = seed};
  tla_twophase::System<12> fixed;
  options.name = "tla_twophase 12 RMs";
  const auto ok = merilo::explore::simulate(fixed, options);
  tla_twophase::System<12, tla_twophase::Bug::early_commit> buggy;
  options.name = "tla_twophase 12 RMs, seeded early commit";
  const auto bug = merilo::explore::simulate(buggy, options);
  if (bug.violation.found()) {
    std::fputs(merilo::explore::format(buggy, bug.violation.trace).c_str(), stderr);
  } else {
    std::fputs("merilo: the walks MISSED the seeded early commit (this is a failure)\n", stderr);
  }
  return ok.ok() && bug.violation.found() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 1) return explore_all();
  const std::uint64_t seed = argc > 2 ? number(argv[2]) : 0;
  const std::uint64_t walks = argc > 3 ? number(argv[3]) : 1'000;
  const std::uint64_t depth = argc > 4 ? number(argv[4]) : 100;
  if (std::string_view(argv[1]) != "--simulate" || argc < 3 || argc > 5 || seed == 0 ||
      walks == 0 || depth == 0) {
    std::fputs(
        "usage: tla_twophase_explore                       exhaustive search (make explore)\n"
        "       tla_twophase_explore --simulate SEED [WALKS [DEPTH]]\n"
        "                                 seeded random walks at 12 RMs (SEED, WALKS, DEPTH "
        "positive;\n"
        "                                 WALKS 1000 and DEPTH 100 by default)\n",
        stderr);
    return 2;
  }
  return simulate_all(seed, static_cast<std::size_t>(walks), static_cast<std::size_t>(depth));
}
