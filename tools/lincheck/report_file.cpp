// report_file.cpp — the --html target: checks up front, a temporary file in
// the target's folder, a rename at the end (report_file.hpp).
#include "report_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include <fmt/format.h>

#include <merilo/core/text.hpp>

namespace merilo::lincheck {

namespace {

namespace fs = std::filesystem;

/// `path` with its symbolic links followed (a dangling one to the path it
/// names), or "" when there are too many (a loop).
std::string followed(const std::string& path) {
  fs::path p = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p.string();
    std::error_code ec;
    const fs::path link = fs::read_symlink(p, ec);
    if (ec) return p.string();
    p = link.is_absolute() ? link : p.parent_path() / link;
  }
  return {};
}

}  // namespace

FileId file_id(const std::string& path) {
  struct stat st {};
  const int rc = path == "-" ? ::fstat(STDIN_FILENO, &st) : ::stat(path.c_str(), &st);
  if (rc != 0) return {};
  return FileId{static_cast<unsigned long long>(st.st_dev),
                static_cast<unsigned long long>(st.st_ino), true};
}

ReportFile::~ReportFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!temp_.empty()) ::unlink(temp_.c_str());
}

std::string ReportFile::refuse(const std::string& why) const {
  return fmt::format("cannot write the HTML report to {}: {}", shown_, why);
}

std::string ReportFile::open(const std::string& path, const FileId& input) {
  shown_ = core::printable(path);
  target_ = followed(path);
  if (target_.empty()) return refuse(std::strerror(ELOOP));
  struct stat st {};
  if (::stat(target_.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return refuse(std::strerror(EISDIR));
    if (!S_ISREG(st.st_mode)) {
      return refuse("not a regular file (a FIFO, a device or a socket cannot take the report)");
    }
    if (input.known && static_cast<unsigned long long>(st.st_dev) == input.device &&
        static_cast<unsigned long long>(st.st_ino) == input.inode) {
      return refuse("it is the history being checked");
    }
    if (::access(target_.c_str(), W_OK) != 0) return refuse(std::strerror(errno));
    mode_ = static_cast<unsigned>(st.st_mode & 07777U);
  } else if (errno != ENOENT) {
    return refuse(std::strerror(errno));
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode_ = 0666U & ~static_cast<unsigned>(mask);
  }
  const fs::path target = target_;
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  // (Appended piece by piece: "." + name + "..." trips GCC 12's -Wrestrict
  // false positive at -O2 and above.)
  std::string leaf = ".";
  leaf += target.filename().string();
  leaf += ".XXXXXX";
  const std::string name = (folder / leaf).string();
  std::vector<char> buf(name.begin(), name.end());
  buf.push_back('\0');
  fd_ = ::mkstemp(buf.data());
  if (fd_ < 0) return refuse(std::strerror(errno));
  temp_ = buf.data();
  return {};
}

std::string ReportFile::commit(const std::string& page) {
  if (fd_ < 0) return refuse("no report file is open");
  std::size_t done = 0;
  while (done < page.size()) {
    const ::ssize_t n = ::write(fd_, page.data() + done, page.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return refuse(std::strerror(n < 0 ? errno : ENOSPC));
    done += static_cast<std::size_t>(n);
  }
  if (::fchmod(fd_, static_cast<mode_t>(mode_)) != 0 || ::fsync(fd_) != 0) {
    return refuse(std::strerror(errno));
  }
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) return refuse(std::strerror(errno));
  if (::rename(temp_.c_str(), target_.c_str()) != 0) return refuse(std::strerror(errno));
  temp_.clear();
  return {};
}

}  // namespace merilo::lincheck
