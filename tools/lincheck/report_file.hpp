// report_file.hpp — where --html writes: checked before the history is
// read, written only at the end, through core::FileWriter (a temporary
// file in the same folder renamed over the target), so no run destroys a
// file it fails on.
#ifndef MERILO_TOOLS_LINCHECK_REPORT_FILE_HPP
#define MERILO_TOOLS_LINCHECK_REPORT_FILE_HPP

#include <string>

#include <merilo/core/file.hpp>

namespace merilo::lincheck {

/// The identity of an open or named file (device and inode), to tell when
/// the report would overwrite the history being read.
struct FileId {
  unsigned long long device = 0;
  unsigned long long inode = 0;
  bool known = false;  ///< False: nothing to compare with.
};

/// The file `path` names, or the one open as standard input for "-";
/// unknown when it cannot be found.
[[nodiscard]] FileId file_id(const std::string& path);

/// The report's file. `open` refuses, before any check runs, a path that
/// is a directory, not a regular file (a FIFO would block, a device
/// cannot take the page), the history itself (`input`), not writable, or
/// in a folder where no file can be created; a symbolic link is followed
/// to its target. It then holds a new temporary file next to the target;
/// `commit` writes the page there and renames it over the target. A
/// ReportFile destroyed without a commit removes its temporary file and
/// leaves the target as it was.
class ReportFile {
 public:
  ReportFile() = default;
  ReportFile(const ReportFile&) = delete;
  ReportFile& operator=(const ReportFile&) = delete;
  ~ReportFile();

  /// "" when `path` can take the report, otherwise why not ("cannot write
  /// the HTML report to PATH: REASON").
  [[nodiscard]] std::string open(const std::string& path, const FileId& input);

  /// Writes `page` and puts it in place. "" on success, otherwise why not
  /// (the target is then as it was before the run).
  [[nodiscard]] std::string commit(const std::string& page);

 private:
  std::string refuse(const std::string& why) const;

  std::string shown_;        // the path as given, for messages
  core::FileWriter writer_;  // links followed: the page goes where they lead
};

}  // namespace merilo::lincheck

#endif  // MERILO_TOOLS_LINCHECK_REPORT_FILE_HPP
