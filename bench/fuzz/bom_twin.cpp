// bom_twin.cpp — the hand-written twin of bom_fuzz (twin.hpp): the same system and
// max_depth, one byte a step, no merilo runner.
#include <cstddef>
#include <cstdint>

#include <bom/system.hpp>

#include "twin.hpp"

using BigBills = bom::System<6>;

MERILO_BENCH_TWIN(BigBills, "bom_twin", 8);
