// fuzz_half_quorum.cpp — the seeded half quorum with 16 replicas as a fuzz
// target for `make fuzz-seeded` and the seeded-versus-unseeded benchmark:
// its seeding search stops at depth 9, where the write has just completed,
// and the bug needs the read to start before any replica of the reader's
// zone has stored the write.
#include <merilo/fuzz/target.hpp>

#include <quorum/system.hpp>

using HalfQuorum = quorum::System<quorum::Bug::half_quorum, 16>;

MERILO_FUZZ_TARGET(HalfQuorum, .name = "QuorumHalfQuorum", .max_depth = 40,
                   .explore = {.max_states = 39'204, .quiet = true});
