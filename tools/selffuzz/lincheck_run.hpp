// lincheck_run.hpp — one bounded merilo-lincheck run for the self-fuzzing
// targets, aborting (so libFuzzer keeps the input) on anything but a
// verdict or "bad input".
#ifndef MERILO_TOOLS_SELFFUZZ_LINCHECK_RUN_HPP
#define MERILO_TOOLS_SELFFUZZ_LINCHECK_RUN_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace merilo::selffuzz {

/// Runs `lincheck::run` on `history` with `model`, `explain` and lines of
/// at most `max_line_bytes`, read as `format` (jsonl or edn), with
/// `independent` [key value] tuples or not, bounded by a budget of 20,000
/// steps, a 1 s timeout and an 8 MiB cache. Prints the output and aborts
/// unless the exit status is 0-3.
void run_lincheck(const std::string& model, bool explain, std::size_t max_line_bytes,
                  const std::string& history, const std::string& format = "jsonl",
                  bool independent = false);

/// merilo-lincheck's model names, in the order `model_names` lists them.
[[nodiscard]] std::vector<std::string> lincheck_models();

/// Byte 0's bit for --explain in the history targets' inputs.
inline constexpr std::uint8_t kExplainBit = 4;

/// A seed per history in `dir` whose name ends in `extension`, sorted by
/// name, twice (plain, then with kExplainBit): byte 0 is the index of the
/// model the file name starts with (`kv_...`; register when none does)
/// ORed with `flags(name)`, then the file's bytes.
[[nodiscard]] std::vector<std::vector<std::uint8_t>> history_seeds(
    const std::string& dir, const std::string& extension,
    std::uint8_t (*flags)(const std::string& name));

}  // namespace merilo::selffuzz

#endif  // MERILO_TOOLS_SELFFUZZ_LINCHECK_RUN_HPP
