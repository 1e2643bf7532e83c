// quorum_half_quorum_twin.cpp — the hand-written twin of quorum_half_quorum_fuzz (twin.hpp): the
// same system and max_depth, one byte a step, no merilo runner.
#include <cstddef>
#include <cstdint>

#include <quorum/system.hpp>

#include "twin.hpp"

using HalfQuorum = quorum::System<quorum::Bug::half_quorum, 16>;

MERILO_BENCH_TWIN(HalfQuorum, "quorum_half_quorum_twin", 40);
