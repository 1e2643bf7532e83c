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

}  // namespace merilo::selffuzz
