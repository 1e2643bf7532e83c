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
  /// For each of `files`, whether a directory listing gave it (then only a
  /// regular file is read) rather than the command line.
  std::vector<bool> listed;
  std::string error;  ///< What is wrong ("" when nothing).
};

/// Each argument as it is, except a directory, which gives its entries
/// whose names end in `.jsonl` or `.edn`, sorted by name (not what its
/// subdirectories hold). An entry that is not a regular file is kept, to be
/// reported as bad input naming what it is. A directory with none, or `-`
/// given twice, is an error.
[[nodiscard]] Expanded expand(const std::vector<std::string>& arguments);

/// Checks each of `files` with `args` (whose `source` and `input` are set
/// per file), `jobs` files at a time, and writes each file's output to `out`
/// and `err` in the order of `files`, each after the one before it is
/// done. With one file the output is `run()`'s; with several, each verdict
/// line starts with the file's name. Returns the highest exit status of
/// any file (kBadInput for a file that cannot be opened; the others are
/// still checked). `jobs` must be at least 1.
///
/// A file that cannot be read is bad input whose message says why: a
/// directory, a dangling symbolic link (and where it points), a link loop,
/// or the system's reason (`Permission denied`). A FIFO, socket or device
/// is read only when named on the command line (`<(zcat h.jsonl.gz)` is a
/// FIFO), and opened without waiting for a writer, so a FIFO nothing writes
/// to reads as empty instead of blocking; one that `listed` says came from
/// a directory is refused unopened (`not a regular file (a FIFO)`).
[[nodiscard]] int run_files(const Args& args, const std::vector<std::string>& files, unsigned jobs,
                            std::ostream& out, std::ostream& err,
                            const std::vector<bool>& listed = {});

}  // namespace merilo::lincheck

#endif  // MERILO_TOOLS_LINCHECK_BATCH_HPP
