// merilo/explore/detail/spill_file.hpp — an anonymous file the search
// writes its queue and parent links to when they may not fit in memory
// (docs/design/disk-frontier.md).
//
// A spill file is created in a directory and unlinked at once, so it has no
// name while the search runs: closing it (the destructor, on every path,
// an exception or a killed process included) gives its space back, and
// nothing is left in the directory. Appends go through the file's end;
// reads name their offset (`pread`), so several threads may read at once
// while nobody appends.
#ifndef MERILO_EXPLORE_DETAIL_SPILL_FILE_HPP
#define MERILO_EXPLORE_DETAIL_SPILL_FILE_HPP

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace merilo::explore::detail {

/// A spill file could not be created, written or read (an unwritable
/// directory, a full disk): the search ends with this text as its error.
class SpillError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The directory spill files go to: `dir`, or the system's temporary
/// directory when it is empty.
[[nodiscard]] std::string spill_directory(std::string_view dir);

/// The usage error for a spill directory that does not exist or is not a
/// directory (`dir` empty: the system's temporary directory), or "".
[[nodiscard]] std::string check_spill_directory(std::string_view dir);

/// One unnamed file in a spill directory.
class SpillFile {
 public:
  /// Creates a file in `dir` (not empty) holding `what` ("frontier",
  /// "parent links"; for error texts). Throws `SpillError` when it cannot.
  SpillFile(const std::string& dir, std::string_view what);
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  /// Appends `size` bytes. Throws `SpillError` when the disk is full or the
  /// write fails otherwise.
  void append(const void* data, std::size_t size);
  /// Reads `size` bytes at `offset`, which must lie within what was
  /// appended. Thread-safe against other reads. Throws `SpillError`.
  void read(std::uint64_t offset, void* data, std::size_t size) const;
  /// Bytes appended so far.
  [[nodiscard]] std::uint64_t size() const noexcept { return size_; }

 private:
  [[noreturn]] void fail(std::string_view doing, int error) const;

  int fd_ = -1;
  std::uint64_t size_ = 0;
  std::string dir_;
  std::string what_;
};

}  // namespace merilo::explore::detail

#endif  // MERILO_EXPLORE_DETAIL_SPILL_FILE_HPP
