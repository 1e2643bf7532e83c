// fuzz.cpp — the counter's parallel spec as a libFuzzer target over its
// cases and their schedules (merilo/fuzz/parallel.hpp): two input bytes
// pick one of 100 cases, the rest chooses the interleaving and which store
// each load reads. The atomic counter never fails.
#include <counter/spec.hpp>
#include <merilo/fuzz/parallel.hpp>

MERILO_PARALLEL_FUZZ_TARGET(counter::Spec<>{}, .name = "Counter");
