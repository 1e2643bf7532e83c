// twophase_lazy_log_twin.cpp — the hand-written twin of twophase_lazy_log_fuzz (twin.hpp): the same
// system and max_depth, one byte a step, no merilo runner.
#include <cstddef>
#include <cstdint>

#include <twophase/system.hpp>

#include "twin.hpp"

using LazyLog = twophase::System<twophase::Bugs{.log_after_ack = true}>;

MERILO_BENCH_TWIN(LazyLog, "twophase_lazy_log_twin", 40);
