// file.cpp — FileWriter: the path checked without opening what is there, a
// temporary file created beside the target, a rename at the end (file.hpp).
#include <merilo/core/file.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <new>
#include <string>

#include <merilo/core/hash.hpp>
#include <merilo/core/text.hpp>

namespace merilo::core {

namespace {

namespace fs = std::filesystem;

constexpr const char* kNotRegular =
    "not a regular file (a FIFO, a device or a socket cannot take it)";

// The longest part of the target's name kept in the temporary file's name,
// so that ".NAME.XXXXXX" stays within a file name's 255 bytes.
constexpr std::size_t kLeafInTemp = 200;

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

/// Six letters or digits, different on every call in this process and
/// unlikely to repeat across processes.
std::string suffix() {
  static std::atomic<std::uint64_t> calls{0};
  const auto now =
      static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  std::uint64_t x = mix64(now ^ mix64(static_cast<std::uint64_t>(::getpid()) << 20U ^ calls++));
  constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::string out;
  for (int i = 0; i < 6; ++i) {
    out += kAlphabet[x % 62];
    x /= 62;
  }
  return out;
}

}  // namespace

FileWriter::~FileWriter() { discard(); }

void FileWriter::discard() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  temp_.clear();
}

std::string FileWriter::open(const std::string& path, Links links) {
  discard();
  target_.clear();
  mode_ = 0;
  if (path.empty()) return "the path is empty";
  const std::string target = links == Links::follow ? followed(path) : path;
  if (target.empty()) return std::strerror(ELOOP);
  struct stat st {};
  if (::lstat(target.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return std::strerror(EISDIR);
    if (S_ISREG(st.st_mode)) {
      if (::access(target.c_str(), W_OK) != 0) return std::strerror(errno);
      mode_ = static_cast<unsigned>(st.st_mode & 07777U);
    } else if (!S_ISLNK(st.st_mode)) {
      return kNotRegular;  // a link (Links::replace) is replaced, never opened
    }
  } else if (errno != ENOENT) {
    return std::strerror(errno);
  }
  const fs::path where = target;
  const std::string leaf = where.filename().string();
  if (leaf.empty()) return "the path names a folder, not a file";
  const fs::path folder = where.has_parent_path() ? where.parent_path() : fs::path(".");
  for (int attempt = 0; attempt < 100; ++attempt) {
    // (Appended piece by piece: "." + name + "." trips GCC 12's -Wrestrict
    // false positive at -O2 and above.)
    std::string name = ".";
    name += leaf.substr(0, kLeafInTemp);
    name += '.';
    name += suffix();
    const std::string temp = (folder / name).string();
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (fd >= 0) {
      fd_ = fd;
      temp_ = temp;
      target_ = target;
      return {};
    }
    if (errno != EEXIST) return std::strerror(errno);
  }
  return std::strerror(EEXIST);
}

std::string FileWriter::commit(std::string_view text) {
  if (fd_ < 0) return "no file is open";
  std::size_t done = 0;
  while (done < text.size()) {
    const ::ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int why = n < 0 ? errno : ENOSPC;
      discard();
      return std::strerror(why);
    }
    done += static_cast<std::size_t>(n);
  }
  if ((mode_ != 0 && ::fchmod(fd_, static_cast<mode_t>(mode_)) != 0) || ::fsync(fd_) != 0) {
    const int why = errno;
    discard();
    return std::strerror(why);
  }
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0 || ::rename(temp_.c_str(), target_.c_str()) != 0) {
    const int why = errno;
    discard();
    return std::strerror(why);
  }
  temp_.clear();
  return {};
}

std::string write_file(const std::string& path, std::string_view text, Links links) noexcept {
  try {
    FileWriter file;
    std::string why = file.open(path, links);
    if (why.empty()) why = file.commit(text);
    if (why.empty()) return {};
    return "cannot write " + printable(path) + ": " + why;
  } catch (const std::bad_alloc&) {
    return "cannot write the file: out of memory";
  } catch (...) {
    return "cannot write the file";
  }
}

}  // namespace merilo::core
