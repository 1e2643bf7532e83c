// mutex_twin.cpp — the hand-written twin of mutex_fuzz (twin.hpp): the same system and
// max_depth, one byte a step, no merilo runner.
#include <cstddef>
#include <cstdint>

#include <mutex/system.hpp>

#include "twin.hpp"

MERILO_BENCH_TWIN(mutex::System<>, "mutex_twin", 48);
