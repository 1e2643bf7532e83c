// fuzz.cpp — two-phase commit as a fuzz target: the fixed round, seeded by a
// complete search (`make fuzz` runs it; it should find nothing).
#include <merilo/fuzz/target.hpp>

#include <twophase/system.hpp>

MERILO_FUZZ_TARGET(twophase::System<>, .name = "TwoPhase", .max_depth = 40,
                   .explore = {.max_states = 50'000, .quiet = true});
