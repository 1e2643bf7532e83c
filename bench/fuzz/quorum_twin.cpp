// quorum_twin.cpp — the hand-written twin of quorum_fuzz (twin.hpp): the same system and
// max_depth, one byte a step, no merilo runner.
#include <cstddef>
#include <cstdint>

#include <quorum/system.hpp>

#include "twin.hpp"

using Quorum = quorum::System<quorum::Bug::none, 16>;

MERILO_BENCH_TWIN(Quorum, "quorum_twin", 40);
