// replay_driver.cpp — replays files and directories through a fuzz target
// built without libFuzzer.
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include <merilo/fuzz/corpus.hpp>
#include <merilo/fuzz/target.hpp>

namespace merilo::fuzz {

int replay_main(int argc, char** argv, int (*init)(int*, char***),
                int (*test_one_input)(const std::uint8_t*, std::size_t)) {
  if (init != nullptr) init(&argc, &argv);
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]).substr(0, 1) != "-") paths.emplace_back(argv[i]);
  }
  if (paths.empty()) {
    fmt::print(stderr,
               "usage: {} [-merilo_seed=DIR] [-merilo_dict=FILE] FILE_OR_DIR...\n"
               "  replays every input through the fuzz target (built without libFuzzer);\n"
               "  -merilo_seed=DIR writes the explorer's seeds into DIR and exits;\n"
               "  -merilo_dict=FILE writes a dictionary of the kinds' encodings and exits\n",
               argc > 0 ? argv[0] : "fuzz-target");
    return 2;
  }
  std::size_t count = 0;
  for (const std::string& path : paths) {
    std::string error;
    const std::vector<InputFile> inputs = read_inputs(path, error);
    if (!error.empty()) {
      fmt::print(stderr, "ERROR: {}\n", error);
      return 2;
    }
    if (inputs.empty()) {
      fmt::print(stderr, "ERROR: merilo replay: no inputs in {}\n", path);
      return 2;
    }
    for (const InputFile& in : inputs) {
      fmt::print(stderr, "Running: {}\n", in.path);
      std::fflush(stderr);
      test_one_input(in.bytes.data(), in.bytes.size());
      ++count;
    }
  }
  fmt::print(stderr, "merilo replay: {} inputs, no violation\n", count);
  return 0;
}

}  // namespace merilo::fuzz
