// relay_short_sequence_twin.cpp — the hand-written twin of relay_short_sequence_fuzz (twin.hpp):
// the same system and max_depth, one byte a step, no merilo runner.
#include <cstddef>
#include <cstdint>

#include <relay/system.hpp>

#include "twin.hpp"

using ShortSequence = relay::System<relay::Bug::short_sequence>;

MERILO_BENCH_TWIN(ShortSequence, "relay_short_sequence_twin", 64);
