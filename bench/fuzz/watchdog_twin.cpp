// watchdog_twin.cpp — the hand-written twin of watchdog_fuzz (twin.hpp): the same system and
// max_depth, one byte a step, no merilo runner.
#include <cstddef>
#include <cstdint>

#include <watchdog/system.hpp>

#include "twin.hpp"

MERILO_BENCH_TWIN(watchdog::System<>, "watchdog_twin", 40);
