// merilo/fuzz/corpus.hpp — corpus files: writing seeds, reading inputs.
//
// A corpus is a directory of fuzz inputs, one per file, as libFuzzer, AFL++
// and OSS-Fuzz keep them. merilo writes its seeds there as
// `merilo-seed-NNNN` (one per control-state tuple, in the explorer's sorted
// tuple order) and replaces its own earlier seeds when it seeds again,
// leaving every other file alone.
//
// Beside the corpus, `write_dictionary` writes a fuzzer dictionary of the
// system's kinds (libFuzzer's `-dict=`, AFL++'s `-x`).
//
// Example:
//
//   std::string error = merilo::fuzz::write_seeds("fuzz-out/mutex/corpus", inputs);
//   if (!error.empty()) fputs(error.c_str(), stderr);
//
// NOTE: all file I/O is compiled once in src/corpus.cpp.
#ifndef MERILO_FUZZ_CORPUS_HPP
#define MERILO_FUZZ_CORPUS_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace merilo::fuzz {

/// The prefix of the seed files merilo writes.
inline constexpr const char* kSeedPrefix = "merilo-seed-";

/// Creates `dir` if needed, removes the `merilo-seed-*` files in it and
/// writes `inputs[i]` to `merilo-seed-<i>`. Returns "" or what went wrong.
[[nodiscard]] std::string write_seeds(const std::string& dir,
                                      const std::vector<std::vector<std::uint8_t>>& inputs);

/// The libFuzzer/AFL++ dictionary of a system with `kinds` kinds: one entry
/// per kind, `kind_<k>="..."`, holding that kind's choice as the input
/// format writes it (its LEB128 varint, input.hpp). A fuzzer that splices
/// whole entries into an input inserts whole steps.
[[nodiscard]] std::string dictionary(std::size_t kinds);

/// Writes `dictionary(kinds)` to the file `path`. Returns "" or what went
/// wrong.
[[nodiscard]] std::string write_dictionary(const std::string& path, std::size_t kinds);

/// One input read from disk.
struct InputFile {
  /// Where it was read from.
  std::string path;
  /// Its contents.
  std::vector<std::uint8_t> bytes;
};

/// The inputs at `path`: the file itself, or every regular file directly in
/// a directory, sorted by name. Sets `error` (and returns what it read so
/// far) when a path cannot be read.
[[nodiscard]] std::vector<InputFile> read_inputs(const std::string& path, std::string& error);

}  // namespace merilo::fuzz

#endif  // MERILO_FUZZ_CORPUS_HPP
