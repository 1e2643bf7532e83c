// lincheck_edn_fuzz.cpp — fuzzes merilo-lincheck's EDN reading end to end:
// the strict EDN reader (tools/lincheck/edn.hpp), the EDN history reader
// and the checker, on any bytes. Byte 0 picks the model (modulo the number
// of models), bit 4 --explain and bit 8 --independent; the rest is the EDN
// history. As lincheck_history_fuzz: every run must end with exit 0-3,
// never 4, a crash, a sanitizer report, a hang or unbounded memory.
#include <cstddef>
#include <cstdint>
#include <string>

#include "lincheck_run.hpp"

namespace {

constexpr std::uint8_t kIndependent = 8;

// Every *.edn history in tests/tools/data, --independent when its name
// says so (lincheck_run.hpp).
std::uint8_t independent_by_name(const std::string& name) {
  return name.find("independent") != std::string::npos ? kIndependent : 0;
}

constexpr merilo::selffuzz::HistoryTarget kTarget{MERILO_LINCHECK_SEEDS, ".edn", "edn",
                                                  kIndependent, independent_by_name};

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  return merilo::selffuzz::initialize_history_target(kTarget, argc, argv);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return merilo::selffuzz::run_history_input(kTarget, data, size);
}
