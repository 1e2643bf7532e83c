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
#include <vector>

#include "lincheck_run.hpp"
#include "seeds.hpp"

namespace {

// Every *.jsonl history in tests/tools/data (lincheck_run.hpp).
std::uint8_t no_flags(const std::string&) { return 0; }

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  merilo::selffuzz::exit_on_dict_flag(*argc, *argv);
  const std::string dir = merilo::selffuzz::seed_dir(*argc, *argv);
  if (!dir.empty()) {
    merilo::selffuzz::write_seeds(
        dir, merilo::selffuzz::history_seeds(MERILO_LINCHECK_SEEDS, ".jsonl", no_flags));
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const std::vector<std::string> kModels = merilo::selffuzz::lincheck_models();
  merilo::selffuzz::run_lincheck(
      kModels[data[0] % kModels.size()], (data[0] & merilo::selffuzz::kExplainBit) != 0,
      std::size_t{64} << 10U, std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
  return 0;
}
