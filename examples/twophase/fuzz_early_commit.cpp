// fuzz_early_commit.cpp — the seeded early commit as a fuzz target for
// `make fuzz-seeded`: its seeding search stops at 8 worlds, before the bug.
#include <merilo/fuzz/target.hpp>

#include <twophase/system.hpp>

using EarlyCommit = twophase::System<twophase::Bugs{.commit_on_first_yes = true}>;

MERILO_FUZZ_TARGET(EarlyCommit, .name = "TwoPhaseEarlyCommit", .max_depth = 40,
                   .explore = {.max_states = 8, .quiet = true});
