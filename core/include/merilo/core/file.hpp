// merilo/core/file.hpp — the one way merilo writes a file it leaves for
// people to read (explore's trace pages, fuzz crash pages, linearize's
// history page, `merilo-lincheck --html`): checked before, written to a
// temporary file beside the target, renamed over it at the end.
//
// A page's path often comes from the environment (`MERILO_TRACE_HTML=DIR`)
// or a command line, so what is already there cannot be trusted. A FIFO
// would block the writer forever, a device would swallow the page, and a
// symbolic link would let the page overwrite whatever file it names (a
// source file, a history). So the path must be a regular file or nothing;
// the page goes to a new file in the same folder and is renamed over the
// target only when every byte is written, so a failed run never leaves a
// half page, nor destroys the file that was there.
//
// Example:
//
//   std::string error = merilo::core::write_file("trace.html", page);  // "" when written
//
//   merilo::core::FileWriter report;  // check early, write late
//   if (std::string why = report.open(path, merilo::core::Links::follow); !why.empty()) ...
//   ... a long check ...
//   if (std::string why = report.commit(page); !why.empty()) ...
//
// NOTE: a symbolic link at the path is replaced by the new file
// (`Links::replace`, the default: what the link named is left untouched),
// or, when the caller asks (`Links::follow`), followed to the file it
// names, which is then replaced while the link stays (docs/design/
// trace-page.md says why pages replace links and lincheck follows them).
// Not for concurrent writers of one path: the last rename wins.
#ifndef MERILO_CORE_FILE_HPP
#define MERILO_CORE_FILE_HPP

#include <cstdint>      // std::uint8_t
#include <string>       // std::string
#include <string_view>  // std::string_view

namespace merilo::core {

/// What a writer does with a symbolic link at its path.
enum class Links : std::uint8_t {
  replace,  ///< The link is replaced by the file; what it named is untouched.
  follow,   ///< The file the link names (through every link) is replaced; the link stays.
};

/// A file being written: `open` checks the path and creates a temporary
/// file beside the target, `commit` writes the text there and renames it
/// over the target. A writer destroyed without a commit removes its
/// temporary file and leaves the target as it was. Never throws but
/// `std::bad_alloc`.
class FileWriter {
 public:
  FileWriter() = default;
  FileWriter(const FileWriter&) = delete;
  FileWriter& operator=(const FileWriter&) = delete;
  ~FileWriter();

  /// Checks `path` and creates the temporary file. "" when the path can
  /// take the file, otherwise why not, without the path (a folder, "not a
  /// regular file ...", a file that is not writable, the system's reason
  /// when no file can be created in the folder). Refuses without opening
  /// anything that is there, so a FIFO never blocks it.
  [[nodiscard]] std::string open(const std::string& path, Links links = Links::replace);

  /// The file that `commit` replaces: the path, or with `Links::follow` the
  /// file its links lead to. "" before a successful `open`.
  [[nodiscard]] const std::string& target() const noexcept { return target_; }

  /// Writes `text` and renames the file over the target, which gets the
  /// permissions of the file it replaces (new: 0666 less the umask). "" on
  /// success, otherwise why not ("no file is open" without an `open`); on
  /// failure the target is as it was.
  [[nodiscard]] std::string commit(std::string_view text);

 private:
  void discard() noexcept;

  std::string target_;  // the file the rename replaces
  std::string temp_;    // the temporary file, "" when none
  int fd_ = -1;
  unsigned mode_ = 0;  // permissions of the replaced file; 0: keep the new file's
};

/// Writes `text` to the file `path` with a `FileWriter` (a symbolic link at
/// `path` is replaced, unless `links` says follow). Returns "" when the
/// file is in place, else "cannot write PATH: REASON". Never throws.
[[nodiscard]] std::string write_file(const std::string& path, std::string_view text,
                                     Links links = Links::replace) noexcept;

}  // namespace merilo::core

#endif  // MERILO_CORE_FILE_HPP
