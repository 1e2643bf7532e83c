// fuzz_narrow_generation.cpp — the seeded narrow generation as a fuzz target
// for `make fuzz-seeded`: its seeding search stops at 40 worlds, before the
// fourth kick the bug needs.
#include <merilo/fuzz/target.hpp>

#include <watchdog/system.hpp>

using NarrowGeneration = watchdog::System<watchdog::Bug::narrow_generation>;

MERILO_FUZZ_TARGET(NarrowGeneration, .name = "WatchdogNarrowGeneration", .max_depth = 40,
                   .explore = {.max_states = 40, .quiet = true});
