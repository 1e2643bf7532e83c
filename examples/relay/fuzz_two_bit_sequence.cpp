// fuzz_two_bit_sequence.cpp — the seeded two-bit sequence as a fuzz target
// for `make fuzz-seeded` and the seeded-versus-unseeded benchmark: its
// seeding search stops at 100 worlds (depth 6), three steps short of the
// bug, which needs a stale copy kept past four newer messages.
#include <merilo/fuzz/target.hpp>

#include <relay/system.hpp>

using TwoBitSequence = relay::System<relay::Bug::two_bit_sequence>;

MERILO_FUZZ_TARGET(TwoBitSequence, .name = "RelayTwoBitSequence", .max_depth = 64,
                   .explore = {.max_states = 100, .quiet = true});
