// fuzz.cpp — the relay as a fuzz target: the fixed relay, seeded by a
// complete search (`make fuzz` runs it; it should find nothing).
#include <merilo/fuzz/target.hpp>

#include <relay/system.hpp>

MERILO_FUZZ_TARGET(relay::System<>, .name = "Relay", .max_depth = 64,
                   .explore = {.max_states = 100'000, .quiet = true});
