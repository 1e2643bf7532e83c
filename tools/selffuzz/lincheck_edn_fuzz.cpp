// lincheck_edn_fuzz.cpp — fuzzes merilo-lincheck's EDN reading end to end:
// the strict EDN reader (tools/lincheck/edn.hpp), the EDN history reader
// and the checker, on any bytes. Byte 0 picks the model (modulo the number
// of models), bit 4 --explain and bit 8 --independent; the rest is the EDN
// history. As lincheck_history_fuzz: every run must end with exit 0-3,
// never 4, a crash, a sanitizer report, a hang or unbounded memory.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "lincheck_run.hpp"
#include "seeds.hpp"

namespace {

constexpr std::uint8_t kIndependent = 8;

// Every *.edn history in tests/tools/data, --independent when its name
// says so (lincheck_run.hpp).
std::uint8_t independent_by_name(const std::string& name) {
  return name.find("independent") != std::string::npos ? kIndependent : 0;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  merilo::selffuzz::exit_on_dict_flag(*argc, *argv);
  const std::string dir = merilo::selffuzz::seed_dir(*argc, *argv);
  if (!dir.empty()) {
    merilo::selffuzz::write_seeds(
        dir, merilo::selffuzz::history_seeds(MERILO_LINCHECK_SEEDS, ".edn", independent_by_name));
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const std::vector<std::string> kModels = merilo::selffuzz::lincheck_models();
  merilo::selffuzz::run_lincheck(
      kModels[data[0] % kModels.size()], (data[0] & merilo::selffuzz::kExplainBit) != 0,
      std::size_t{64} << 10U, std::string(reinterpret_cast<const char*>(data) + 1, size - 1), "edn",
      (data[0] & kIndependent) != 0);
  return 0;
}
