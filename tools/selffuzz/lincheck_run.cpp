// lincheck_run.cpp — the bounded merilo-lincheck run the self-fuzzing
// targets share (lincheck_run.hpp).
#include "lincheck_run.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "lincheck.hpp"
#include "seeds.hpp"

namespace merilo::selffuzz {

void run_lincheck(const std::string& model, bool explain, std::size_t max_line_bytes,
                  const std::string& history, const std::string& format, bool independent) {
  lincheck::Args args;
  args.model = model;
  args.explain = explain;
  args.budget = 20'000;
  args.timeout_seconds = 1;
  args.cache_mb = 8;
  args.max_line_bytes = max_line_bytes;
  args.source = "fuzz";
  args.format = format;
  args.independent = independent;
  std::istringstream in(history);
  std::ostringstream out;
  std::ostringstream err;
  const int code = lincheck::run(args, in, out, err);
  if (code < lincheck::kLinearizable || code > lincheck::kBadInput) {
    std::fprintf(stderr,
                 "==merilo== ERROR: merilo-lincheck --model %s --format %s%s exited %d:\n%s%s\n",
                 model.c_str(), format.c_str(), independent ? " --independent" : "", code,
                 out.str().c_str(), err.str().c_str());
    std::abort();
  }
}

std::vector<std::string> lincheck_models() {
  std::vector<std::string> out;
  std::stringstream names(lincheck::model_names(",", ","));
  for (std::string name; std::getline(names, name, ',');) out.push_back(name);
  return out;
}

std::vector<std::vector<std::uint8_t>> history_seeds(const std::string& dir,
                                                     const std::string& extension,
                                                     std::uint8_t (*flags)(const std::string&)) {
  const std::vector<std::string> names = lincheck_models();
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().extension() == extension) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<std::vector<std::uint8_t>> out;
  for (const auto& file : files) {
    const std::string name = file.filename().string();
    std::uint8_t first = flags(name);
    for (std::size_t m = 0; m < names.size(); ++m) {
      if (name.starts_with(names[m] + "_")) first = static_cast<std::uint8_t>(first | m);
    }
    std::ifstream in(file, std::ios::binary);
    const std::vector<std::uint8_t> text{std::istreambuf_iterator<char>(in),
                                         std::istreambuf_iterator<char>()};
    for (const std::uint8_t explain : {std::uint8_t{0}, kExplainBit}) {
      std::vector<std::uint8_t> seed{static_cast<std::uint8_t>(first | explain)};
      seed.insert(seed.end(), text.begin(), text.end());
      out.push_back(std::move(seed));
    }
  }
  return out;
}

int initialize_history_target(const HistoryTarget& target, int* argc, char*** argv) {
  exit_on_dict_flag(*argc, *argv);
  const std::string dir = seed_dir(*argc, *argv);
  if (!dir.empty()) write_seeds(dir, history_seeds(target.seeds, target.extension, target.flags));
  return 0;
}

int run_history_input(const HistoryTarget& target, const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const std::vector<std::string> kModels = lincheck_models();
  const bool independent = target.independent_bit != 0 && (data[0] & target.independent_bit) != 0;
  run_lincheck(
      kModels[data[0] % kModels.size()], (data[0] & kExplainBit) != 0, std::size_t{64} << 10U,
      std::string(reinterpret_cast<const char*>(data) + 1, size - 1), target.format, independent);
  return 0;
}

}  // namespace merilo::selffuzz
