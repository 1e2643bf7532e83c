// fuzz_lost_update.cpp — the seeded lost update as a parallel fuzz target
// for `make fuzz-seeded`: its seeding search runs no schedule with a
// preemption, and the bug needs one, so the fuzzer has to find it.
#include <counter/spec.hpp>
#include <merilo/fuzz/parallel.hpp>

MERILO_PARALLEL_FUZZ_TARGET(counter::Spec<counter::Bug::lost_update>{}, .name = "CounterLostUpdate",
                            .seed_preemptions = 0);
