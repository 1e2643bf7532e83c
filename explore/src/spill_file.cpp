// spill_file.cpp — the search's unnamed spill files: created and unlinked
// in one go, appended to, read back by offset.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <merilo/explore/detail/spill_file.hpp>

namespace merilo::explore::detail {

std::string spill_directory(std::string_view dir) {
  if (!dir.empty()) return std::string(dir);
  std::error_code ec;
  std::filesystem::path tmp = std::filesystem::temp_directory_path(ec);
  return ec ? std::string("/tmp") : tmp.string();
}

std::string check_spill_directory(std::string_view dir) {
  const std::string path = spill_directory(dir);
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(st)) {
    return fmt::format(
        "merilo: the spill directory '{}' (ExploreOptions::spill_dir) does not exist", path);
  }
  if (!std::filesystem::is_directory(st)) {
    return fmt::format(
        "merilo: the spill directory '{}' (ExploreOptions::spill_dir) is not a directory", path);
  }
  return {};
}

SpillFile::SpillFile(const std::string& dir, std::string_view what) : dir_(dir), what_(what) {
  std::string name = dir_ + "/merilo-spill-XXXXXX";
  std::vector<char> buf(name.begin(), name.end());
  buf.push_back('\0');
  fd_ = ::mkstemp(buf.data());
  if (fd_ < 0) fail("create", errno);
  // Unnamed from here on: the space comes back when the file is closed,
  // however the search ends.
  if (::unlink(buf.data()) != 0) {
    const int e = errno;
    ::close(fd_);
    fd_ = -1;
    fail("unlink", e);
  }
}

SpillFile::~SpillFile() {
  if (fd_ >= 0) ::close(fd_);
}

void SpillFile::fail(std::string_view doing, int error) const {
  std::string why = std::strerror(error);
  if (error == ENOSPC || error == EDQUOT || error == EFBIG) why += " (the disk or quota is full)";
  if (error == EACCES || error == EROFS || error == EPERM)
    why += " (the directory is not writable)";
  throw SpillError(fmt::format(
      "merilo: could not {} the {} spill file in '{}' (ExploreOptions::spill_dir) after {} "
      "bytes: {}",
      doing, what_, dir_, size_, why));
}

void SpillFile::append(const void* data, std::size_t size) {
  const auto* at = static_cast<const char*>(data);
  while (size > 0) {
    const ::ssize_t n = ::write(fd_, at, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("write", errno);
    }
    if (n == 0) fail("write", ENOSPC);
    at += n;
    size -= static_cast<std::size_t>(n);
    size_ += static_cast<std::uint64_t>(n);
  }
}

void SpillFile::read(std::uint64_t offset, void* data, std::size_t size) const {
  auto* at = static_cast<char*>(data);
  while (size > 0) {
    const ::ssize_t n = ::pread(fd_, at, size, static_cast<::off_t>(offset));
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("read", errno);
    }
    if (n == 0) fail("read (short file)", EIO);
    at += n;
    size -= static_cast<std::size_t>(n);
    offset += static_cast<std::uint64_t>(n);
  }
}

}  // namespace merilo::explore::detail
