// fuzz.cpp — the watchdog as a fuzz target: the fixed watchdog, seeded by a
// complete search (`make fuzz` runs it; it should find nothing).
#include <merilo/fuzz/target.hpp>

#include <watchdog/system.hpp>

MERILO_FUZZ_TARGET(watchdog::System<>, .name = "Watchdog", .max_depth = 40,
                   .explore = {.max_states = 50'000, .quiet = true});
