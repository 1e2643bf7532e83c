// seeds.cpp — writes the self-fuzzing targets' seed corpora.
#include "seeds.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <system_error>

namespace merilo::selffuzz {

void exit_on_dict_flag(int argc, char** argv) {
  constexpr std::string_view kFlag = "-merilo_dict=";
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg(argv[i]);
    if (!arg.starts_with(kFlag)) continue;
    // These targets read bytes, not an adapter's kinds: the dictionary is empty.
    const std::string path(arg.substr(kFlag.size()));
    std::ofstream out(path, std::ios::trunc);
    if (!out) {
      std::fprintf(stderr, "merilo fuzz: cannot write %s\n", path.c_str());
      std::exit(1);
    }
    std::exit(0);
  }
}

std::string seed_dir(int argc, char** argv) {
  constexpr std::string_view kFlag = "-merilo_seed=";
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg(argv[i]);
    if (arg.starts_with(kFlag)) return std::string(arg.substr(kFlag.size()));
  }
  return {};
}

void write_seeds(const std::string& dir, const std::vector<std::vector<std::uint8_t>>& seeds) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    std::fprintf(stderr, "merilo fuzz: cannot create %s: %s\n", dir.c_str(), ec.message().c_str());
    std::exit(1);
  }
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    const auto path = std::filesystem::path(dir) / ("seed-" + std::to_string(i));
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(seeds[i].data()),
              static_cast<std::streamsize>(seeds[i].size()));
    if (!out) {
      std::fprintf(stderr, "merilo fuzz: cannot write %s\n", path.c_str());
      std::exit(1);
    }
  }
  std::fprintf(stderr, "merilo fuzz: seeded %s with %zu inputs\n", dir.c_str(), seeds.size());
  std::exit(0);
}

}  // namespace merilo::selffuzz
