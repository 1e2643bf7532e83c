// fuzz.cpp — bills as a fuzz target: random bills of up to six lines (two
// per part, twice what the exhaustive search builds), rolled up by the
// machine and by plain recursion, seeded by a search bounded at 50,000
// worlds (`make fuzz` runs it; it should find nothing).
#include <merilo/fuzz/target.hpp>

#include <bom/system.hpp>

using BigBills = bom::System<6>;
MERILO_FUZZ_TARGET(BigBills, .name = "Bom", .max_depth = 8,
                   .explore = {.max_states = 50'000, .quiet = true});
