// fuzz.cpp — bills as a fuzz target: random bills of up to three lines,
// rolled up by the machine and by plain recursion, seeded by a complete
// search (`make fuzz` runs it; it should find nothing).
#include <merilo/fuzz/target.hpp>

#include <bom/system.hpp>

MERILO_FUZZ_TARGET(bom::System, .name = "Bom", .max_depth = 8,
                   .explore = {.max_states = 50'000, .quiet = true});
