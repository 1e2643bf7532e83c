// relay_twin.cpp — the hand-written twin of relay_fuzz (twin.hpp): the same system and
// max_depth, one byte a step, no merilo runner.
#include <cstddef>
#include <cstdint>

#include <relay/system.hpp>

#include "twin.hpp"

MERILO_BENCH_TWIN(relay::System<>, "relay_twin", 64);
