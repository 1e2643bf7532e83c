// fuzz_lazy_log.cpp — the seeded lazy commit log as a fuzz target for
// `make fuzz-seeded` and the seeded-versus-unseeded benchmark: its seeding
// search stops at 300 worlds (depth 7), three steps short of the bug, which
// needs a crash between sending commit and the first acknowledgement.
#include <merilo/fuzz/target.hpp>

#include <twophase/system.hpp>

using LazyLog = twophase::System<twophase::Bugs{.log_after_ack = true}>;

MERILO_FUZZ_TARGET(LazyLog, .name = "TwoPhaseLazyLog", .max_depth = 40,
                   .explore = {.max_states = 300, .quiet = true});
