// seeds.hpp — `-merilo_seed=DIR` for the self-fuzzing targets: find the flag,
// write seed inputs into DIR.
#ifndef MERILO_TOOLS_SELFFUZZ_SEEDS_HPP
#define MERILO_TOOLS_SELFFUZZ_SEEDS_HPP

#include <cstdint>
#include <string>
#include <vector>

namespace merilo::selffuzz {

/// With `-merilo_dict=FILE` among the arguments, writes an empty
/// dictionary to FILE (these targets have no kinds) and exits 0.
void exit_on_dict_flag(int argc, char** argv);

/// The value of `-merilo_seed=DIR` among the arguments, or "".
[[nodiscard]] std::string seed_dir(int argc, char** argv);

/// Writes each seed into `dir` (created if needed) as seed-<n>, prints one
/// line saying how many, and exits: 0 when all were written, 1 otherwise.
[[noreturn]] void write_seeds(const std::string& dir,
                              const std::vector<std::vector<std::uint8_t>>& seeds);

}  // namespace merilo::selffuzz

#endif  // MERILO_TOOLS_SELFFUZZ_SEEDS_HPP
