// twophase_early_commit_twin.cpp — the hand-written twin of twophase_early_commit_fuzz (twin.hpp):
// the same system and max_depth, one byte a step, no merilo runner.
#include <cstddef>
#include <cstdint>

#include <twophase/system.hpp>

#include "twin.hpp"

using EarlyCommit = twophase::System<twophase::Bugs{.commit_on_first_yes = true}>;

MERILO_BENCH_TWIN(EarlyCommit, "twophase_early_commit_twin", 40);
