// batch.hpp — merilo-lincheck on many histories in one process: the file
// arguments expanded (a directory gives its histories), each file checked
// (several at once with --jobs), the outputs printed in argument order, and
// the worst exit status returned.
#ifndef MERILO_TOOLS_LINCHECK_BATCH_HPP
#define MERILO_TOOLS_LINCHECK_BATCH_HPP

#include <ostream>
#include <string>
#include <vector>

#include "lincheck.hpp"

namespace merilo::lincheck {

/// The histories a list of FILE arguments names.
struct Expanded {
  std::vector<std::string> files;  ///< In argument order.
  std::string error;               ///< What is wrong ("" when nothing).
};

/// Each argument as it is, except a directory, which gives its regular
/// files ending in `.jsonl` or `.edn`, sorted by name (not its
/// subdirectories). A directory with none, or `-` given twice, is an error.
[[nodiscard]] Expanded expand(const std::vector<std::string>& arguments);

/// Checks each of `files` with `args` (whose `source` and `input` are set
/// per file), `jobs` files at a time, and writes each file's output to `out`
/// and `err` in the order of `files`, each after the one before it is
/// done. With one file the output is `run()`'s; with several, each verdict
/// line starts with the file's name. Returns the highest exit status of
/// any file (kBadInput for a file that cannot be opened; the others are
/// still checked). `jobs` must be at least 1.
[[nodiscard]] int run_files(const Args& args, const std::vector<std::string>& files, unsigned jobs,
                            std::ostream& out, std::ostream& err);

}  // namespace merilo::lincheck

#endif  // MERILO_TOOLS_LINCHECK_BATCH_HPP
