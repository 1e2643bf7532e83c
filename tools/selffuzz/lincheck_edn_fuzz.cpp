// lincheck_edn_fuzz.cpp — fuzzes merilo-lincheck's EDN reading end to end:
// the strict EDN reader (tools/lincheck/edn.hpp), the EDN history reader
// and the checker, on any bytes. Byte 0 picks the model (modulo the number
// of models), bit 4 --explain and bit 8 --independent; the rest is the EDN
// history. As lincheck_history_fuzz: every run must end with exit 0-3,
// never 4, a crash, a sanitizer report, a hang or unbounded memory.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "lincheck.hpp"
#include "lincheck_run.hpp"
#include "seeds.hpp"

namespace {

std::vector<std::string> models() {
  std::vector<std::string> out;
  std::stringstream names(merilo::lincheck::model_names(",", ","));
  for (std::string name; std::getline(names, name, ',');) out.push_back(name);
  return out;
}

constexpr std::uint8_t kExplain = 4;
constexpr std::uint8_t kIndependent = 8;

// Every *.edn history in tests/tools/data, byte 0 naming the model its
// name starts with (register when none does) and --independent when its
// name says so, once plain and once explained.
std::vector<std::vector<std::uint8_t>> seeds() {
  const std::vector<std::string> names = models();
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(MERILO_LINCHECK_SEEDS)) {
    if (entry.is_regular_file() && entry.path().extension() == ".edn") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<std::vector<std::uint8_t>> out;
  for (const auto& file : files) {
    const std::string name = file.filename().string();
    std::uint8_t flags = 0;
    for (std::size_t m = 0; m < names.size(); ++m) {
      if (name.starts_with(names[m] + "_")) flags = static_cast<std::uint8_t>(m);
    }
    if (name.find("independent") != std::string::npos) flags |= kIndependent;
    std::ifstream in(file, std::ios::binary);
    const std::vector<std::uint8_t> text{std::istreambuf_iterator<char>(in),
                                         std::istreambuf_iterator<char>()};
    for (const std::uint8_t explain : {std::uint8_t{0}, kExplain}) {
      std::vector<std::uint8_t> seed{static_cast<std::uint8_t>(flags | explain)};
      seed.insert(seed.end(), text.begin(), text.end());
      out.push_back(std::move(seed));
    }
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  merilo::selffuzz::exit_on_dict_flag(*argc, *argv);
  const std::string dir = merilo::selffuzz::seed_dir(*argc, *argv);
  if (!dir.empty()) merilo::selffuzz::write_seeds(dir, seeds());
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const std::vector<std::string> kModels = models();
  merilo::selffuzz::run_lincheck(kModels[data[0] % kModels.size()], (data[0] & kExplain) != 0,
                                 std::size_t{64} << 10U,
                                 std::string(reinterpret_cast<const char*>(data) + 1, size - 1),
                                 "edn", (data[0] & kIndependent) != 0);
  return 0;
}
