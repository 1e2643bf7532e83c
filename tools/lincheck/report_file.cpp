// report_file.cpp — the --html target: core::FileWriter with links
// followed, and the one check it cannot make, that the page would not
// replace the history being read (report_file.hpp).
#include "report_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <merilo/core/text.hpp>

namespace merilo::lincheck {

FileId file_id(const std::string& path) {
  struct stat st {};
  const int rc = path == "-" ? ::fstat(STDIN_FILENO, &st) : ::stat(path.c_str(), &st);
  if (rc != 0) return {};
  return FileId{static_cast<unsigned long long>(st.st_dev),
                static_cast<unsigned long long>(st.st_ino), true};
}

ReportFile::~ReportFile() = default;

std::string ReportFile::refuse(const std::string& why) const {
  return fmt::format("cannot write the HTML report to {}: {}", shown_, why);
}

std::string ReportFile::open(const std::string& path, const FileId& input) {
  shown_ = core::printable(path);
  if (const FileId target = file_id(path);  // stat() follows the links, as the writer will
      input.known && target.known && target.device == input.device && target.inode == input.inode) {
    return refuse("it is the history being checked");
  }
  if (std::string why = writer_.open(path, core::Links::follow); !why.empty()) return refuse(why);
  return {};
}

std::string ReportFile::commit(const std::string& page) {
  if (std::string why = writer_.commit(page); !why.empty()) return refuse(why);
  return {};
}

}  // namespace merilo::lincheck
