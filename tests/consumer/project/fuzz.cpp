// A fuzz target built by merilo_fuzz_target() in a project that uses merilo:
// the consumer's Counters, two counters 0..2, fuzzed for 8 steps an input.
// Without libFuzzer it is a replay driver; run.cmake seeds its corpus
// and replays it.
#include <merilo/fuzz/target.hpp>

#include "counters.hpp"

MERILO_FUZZ_TARGET(Counters, .name = "Counters", .max_depth = 8,
                   .explore = {.max_states = 100, .quiet = true});
