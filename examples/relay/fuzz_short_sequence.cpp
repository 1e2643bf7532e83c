// fuzz_short_sequence.cpp — the seeded short sequence as a fuzz target
// for `make fuzz-seeded` and the seeded-versus-unseeded benchmark: its
// seeding search stops at 3000 worlds (depth 14), three steps short of the
// bug, which needs a stale copy kept past eight newer messages.
#include <merilo/fuzz/target.hpp>

#include <relay/system.hpp>

using ShortSequence = relay::System<relay::Bug::short_sequence>;

MERILO_FUZZ_TARGET(ShortSequence, .name = "RelayShortSequence", .max_depth = 64,
                   .explore = {.max_states = 3000, .quiet = true});
