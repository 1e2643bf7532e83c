// fuzz_duplicate_grant.cpp — the seeded duplicate grant as a fuzz target for
// `make fuzz-seeded`: its seeding search is bounded to 3 worlds, too few to
// reach the bug, so the fuzzer has to find it.
#include <merilo/fuzz/target.hpp>

#include <mutex/system.hpp>

using DuplicateGrant = mutex::System<mutex::Bug::duplicate_grant>;

MERILO_FUZZ_TARGET(DuplicateGrant, .name = "MutexDuplicateGrant", .max_depth = 48,
                   .explore = {.max_states = 3, .quiet = true});
