// batch.cpp — many files: expand directories, run a pool of workers that
// each take the next file, print the results in order as they arrive.
#include "batch.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <sstream>
#include <system_error>
#include <thread>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <merilo/core/text.hpp>

namespace merilo::lincheck {

namespace fs = std::filesystem;

namespace {

struct Outcome {
  int code = kInternalError;
  std::string out;
  std::string err;
};

// Reads a file descriptor it owns. A read error is thrown as
// std::ios_base::failure, which run() reports as "cannot read".
class FdBuf : public std::streambuf {
 public:
  explicit FdBuf(int fd) : fd_(fd) {}
  FdBuf(const FdBuf&) = delete;
  FdBuf& operator=(const FdBuf&) = delete;
  ~FdBuf() override { ::close(fd_); }

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    for (;;) {
      const ssize_t got = ::read(fd_, buffer_, sizeof buffer_);
      if (got > 0) {
        setg(buffer_, buffer_, buffer_ + got);
        return traits_type::to_int_type(*gptr());
      }
      if (got == 0) return traits_type::eof();
      if (errno != EINTR) throw std::ios_base::failure(std::strerror(errno));
    }
  }

 private:
  int fd_;
  char buffer_[std::size_t{64} << 10U];
};

// What a file that is not a regular one is, for messages.
const char* file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

// Opens `file` for reading without ever blocking on a FIFO: the open does
// not wait for a writer, and the reads that follow wait only while one is
// connected. Returns the descriptor, or -1 and why in `why`.
int open_history(const std::string& file, bool listed, std::string& why) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) {
    const int error = errno;
    struct stat link {};
    if (::lstat(file.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
      std::error_code ec;
      const fs::path target = fs::read_symlink(file, ec);
      if (error == ELOOP) {
        why = fmt::format("a symbolic link loop ({})", std::strerror(error));
      } else if (error == ENOENT) {
        why = fmt::format("a dangling symbolic link (to {}, which does not exist)",
                          ec ? std::string("?") : core::printable(target.string()));
      } else {
        why = fmt::format("a symbolic link that cannot be followed ({})", std::strerror(error));
      }
    } else {
      why = std::strerror(error);
    }
    return -1;
  }
  if (S_ISDIR(st.st_mode)) {
    why = "it is a directory";
    return -1;
  }
  if (listed && !S_ISREG(st.st_mode)) {
    why = fmt::format("not a regular file ({}), so not read as a history", file_kind(st.st_mode));
    return -1;
  }
  const int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    why = std::strerror(errno);
    return -1;
  }
  // The file may have been replaced since stat(): decide on what was opened.
  if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode) || (listed && !S_ISREG(st.st_mode))) {
    why = S_ISDIR(st.st_mode) ? "it is a directory"
                              : fmt::format("not a regular file ({})", file_kind(st.st_mode));
    ::close(fd);
    return -1;
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
    why = std::strerror(errno);
    ::close(fd);
    return -1;
  }
  return fd;
}

// One file, its output kept to be printed in order.
Outcome check_one(Args args, const std::string& file, bool listed) {
  Outcome o;
  std::ostringstream out;
  std::ostringstream err;
  args.source = file == "-" ? "<stdin>" : core::printable(file);
  args.input = file;
  if (file == "-") {
    o.code = run(args, std::cin, out, err);
  } else {
    std::string why;
    const int fd = open_history(file, listed, why);
    if (fd < 0) {
      fmt::print(err, "merilo-lincheck: cannot open {}: {}\n", args.source, why);
      o.code = kBadInput;
    } else {
      FdBuf buf(fd);
      std::istream in(&buf);
      o.code = run(args, in, out, err);
    }
  }
  o.out = out.str();
  o.err = err.str();
  return o;
}

}  // namespace

Expanded expand(const std::vector<std::string>& arguments) {
  Expanded e;
  bool stdin_taken = false;
  for (const std::string& a : arguments) {
    std::error_code ec;
    if (a == "-") {
      if (stdin_taken) {
        e.error = "- (standard input) can be given only once";
        return e;
      }
      stdin_taken = true;
      e.files.push_back(a);
      e.listed.push_back(false);
      continue;
    }
    if (!fs::is_directory(a, ec)) {
      e.files.push_back(a);
      e.listed.push_back(false);
      continue;
    }
    // Every entry named as a history, whatever it is: one that is not a
    // regular file is reported when its turn comes, not skipped unsaid.
    std::vector<std::string> found;
    for (fs::directory_iterator it(a, ec), end; !ec && it != end; it.increment(ec)) {
      const fs::path& p = it->path();
      const std::string ext = p.extension().string();
      if (ext == ".jsonl" || ext == ".edn") found.push_back(p.string());
    }
    if (ec) {
      e.error = fmt::format("cannot list {}: {}", core::printable(a), ec.message());
      return e;
    }
    if (found.empty()) {
      e.error = fmt::format("{} holds no *.jsonl or *.edn files", core::printable(a));
      return e;
    }
    std::sort(found.begin(), found.end());
    e.files.insert(e.files.end(), found.begin(), found.end());
    e.listed.insert(e.listed.end(), found.size(), true);
  }
  return e;
}

int run_files(const Args& args, const std::vector<std::string>& files, unsigned jobs,
              std::ostream& out, std::ostream& err, const std::vector<bool>& listed) {
  std::vector<std::promise<Outcome>> promises(files.size());
  std::vector<std::future<Outcome>> results;
  results.reserve(files.size());
  for (auto& p : promises) results.push_back(p.get_future());
  std::atomic<std::size_t> next{0};
  auto work_one = [&](std::size_t i) {
    try {
      promises[i].set_value(check_one(args, files[i], i < listed.size() && listed[i]));
    } catch (const std::exception& e) {  // run() never throws; memory for the output might
      promises[i].set_value(
          Outcome{kInternalError, "",
                  fmt::format("merilo-lincheck: internal error: {}\n", core::printable(e.what()))});
    }
  };
  auto work = [&] {
    for (std::size_t i = next++; i < files.size(); i = next++) work_one(i);
  };
  // With one job this thread checks each file and prints it; with more,
  // `jobs` helpers check and this thread prints, in order, as they finish.
  std::vector<std::thread> pool;
  const std::size_t helpers = jobs > 1 ? std::min<std::size_t>(jobs, files.size()) : 0;
  for (std::size_t t = 0; t < helpers; ++t) pool.emplace_back(work);
  int worst = kLinearizable;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (helpers == 0) work_one(i);
    Outcome o = results[i].get();
    worst = std::max(worst, o.code);
    if (files.size() > 1 && !o.out.empty()) {
      fmt::print(out, "{}: ", files[i] == "-" ? "<stdin>" : core::printable(files[i]));
    }
    out << o.out;
    err << o.err;
    out.flush();
    err.flush();
  }
  for (auto& t : pool) t.join();
  return worst;
}

}  // namespace merilo::lincheck
