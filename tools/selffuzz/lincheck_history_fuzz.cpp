// lincheck_history_fuzz.cpp — fuzzes merilo-lincheck end to end: the history
// reader and the checker, on any bytes. Byte 0 picks the model (modulo the
// number of models) and, with bit 4, --explain; the rest is the history
// file. Whatever the input, the run must end with exit 0-3 (a verdict or
// "bad input"), never 4 (internal error), a crash, a sanitizer report, a
// hang or unbounded memory: the budget, a 1 s timeout, an 8 MiB cache and
// a 64 KiB line cap bound each run.
#include <cstddef>
#include <cstdint>
#include <string>

#include "lincheck_run.hpp"

namespace {

// Every *.jsonl history in tests/tools/data (lincheck_run.hpp).
std::uint8_t no_flags(const std::string&) { return 0; }

constexpr merilo::selffuzz::HistoryTarget kTarget{MERILO_LINCHECK_SEEDS, ".jsonl", "jsonl", 0,
                                                  no_flags};

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  return merilo::selffuzz::initialize_history_target(kTarget, argc, argv);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return merilo::selffuzz::run_history_input(kTarget, data, size);
}
