// lincheck_run.hpp — one bounded merilo-lincheck run for the self-fuzzing
// targets, aborting (so libFuzzer keeps the input) on anything but a
// verdict or "bad input".
#ifndef MERILO_TOOLS_SELFFUZZ_LINCHECK_RUN_HPP
#define MERILO_TOOLS_SELFFUZZ_LINCHECK_RUN_HPP

#include <cstddef>
#include <string>

namespace merilo::selffuzz {

/// Runs `lincheck::run` on `history` with `model`, `explain` and lines of
/// at most `max_line_bytes`, read as `format` (jsonl or edn), with
/// `independent` [key value] tuples or not, bounded by a budget of 20,000
/// steps, a 1 s timeout and an 8 MiB cache. Prints the output and aborts
/// unless the exit status is 0-3.
void run_lincheck(const std::string& model, bool explain, std::size_t max_line_bytes,
                  const std::string& history, const std::string& format = "jsonl",
                  bool independent = false);

}  // namespace merilo::selffuzz

#endif  // MERILO_TOOLS_SELFFUZZ_LINCHECK_RUN_HPP
