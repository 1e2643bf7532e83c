// fuzz.cpp — the quorum register as a fuzz target: the fixed register with
// 16 replicas, seeded by a bounded search (the complete one is far larger);
// `make fuzz` runs it, and it should find nothing.
#include <merilo/fuzz/target.hpp>

#include <quorum/system.hpp>

using Quorum = quorum::System<quorum::Bug::none, 16>;

MERILO_FUZZ_TARGET(Quorum, .name = "Quorum", .max_depth = 40,
                   .explore = {.max_states = 100'000, .quiet = true});
