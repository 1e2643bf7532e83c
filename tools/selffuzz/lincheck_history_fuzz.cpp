// lincheck_history_fuzz.cpp — fuzzes merilo-lincheck end to end: the history
// reader and the checker, on any bytes. Byte 0 picks the model (modulo the
// number of models) and, with bit 4, --explain; the rest is the history
// file. Whatever the input, the run must end with exit 0-3 (a verdict or
// "bad input"), never 4 (internal error), a crash, a sanitizer report, a
// hang or unbounded memory: the budget, a 1 s timeout, an 8 MiB cache and
// a 64 KiB line cap bound each run.
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

// Every history in tests/tools/data, with byte 0 naming the model its
// name starts with (register when none does), once plain, once explained.
std::vector<std::vector<std::uint8_t>> seeds() {
  const std::vector<std::string> names = models();
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(MERILO_LINCHECK_SEEDS)) {
    if (entry.is_regular_file() && entry.path().extension() == ".jsonl") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<std::vector<std::uint8_t>> out;
  for (const auto& file : files) {
    std::uint8_t model = 0;
    for (std::size_t m = 0; m < names.size(); ++m) {
      if (file.filename().string().starts_with(names[m] + "_"))
        model = static_cast<std::uint8_t>(m);
    }
    std::ifstream in(file, std::ios::binary);
    const std::vector<std::uint8_t> text{std::istreambuf_iterator<char>(in),
                                         std::istreambuf_iterator<char>()};
    for (const int explain : {0, 4}) {
      std::vector<std::uint8_t> seed{static_cast<std::uint8_t>(model + explain)};
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
  merilo::selffuzz::run_lincheck(kModels[data[0] % kModels.size()], (data[0] & 4U) != 0,
                                 std::size_t{64} << 10U,
                                 std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
  return 0;
}
