// mutex_duplicate_grant_twin.cpp — the hand-written twin of mutex_duplicate_grant_fuzz (twin.hpp):
// the same system and max_depth, one byte a step, no merilo runner.
#include <cstddef>
#include <cstdint>

#include <mutex/system.hpp>

#include "twin.hpp"

using DuplicateGrant = mutex::System<mutex::Bug::duplicate_grant>;

MERILO_BENCH_TWIN(DuplicateGrant, "mutex_duplicate_grant_twin", 48);
