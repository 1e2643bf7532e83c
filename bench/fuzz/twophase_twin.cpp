// twophase_twin.cpp — the hand-written twin of twophase_fuzz (twin.hpp): the same system and
// max_depth, one byte a step, no merilo runner.
#include <cstddef>
#include <cstdint>

#include <twophase/system.hpp>

#include "twin.hpp"

MERILO_BENCH_TWIN(twophase::System<>, "twophase_twin", 40);
