// fuzz.cpp — the mutex as a fuzz target: the fixed server, seeded by a
// complete search (`make fuzz` runs it; it should find nothing).
#include <merilo/fuzz/target.hpp>

#include <mutex/system.hpp>

MERILO_FUZZ_TARGET(mutex::System<>, .name = "Mutex", .max_depth = 48,
                   .explore = {.max_states = 20'000, .quiet = true});
