// fuzz_main.cpp — `main` for a fuzz target built without libFuzzer: replays
// the files and directories named on the command line (merilo::fuzz_main).
#include <cstddef>
#include <cstdint>

#include <merilo/fuzz/target.hpp>

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) __attribute__((weak));
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  return merilo::fuzz::replay_main(argc, argv, LLVMFuzzerInitialize, LLVMFuzzerTestOneInput);
}
