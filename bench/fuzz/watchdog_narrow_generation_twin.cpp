// watchdog_narrow_generation_twin.cpp — the hand-written twin of watchdog_narrow_generation_fuzz
// (twin.hpp): the same system and max_depth, one byte a step, no merilo runner.
#include <cstddef>
#include <cstdint>

#include <watchdog/system.hpp>

#include "twin.hpp"

using NarrowGeneration = watchdog::System<watchdog::Bug::narrow_generation>;

MERILO_BENCH_TWIN(NarrowGeneration, "watchdog_narrow_generation_twin", 40);
