// file_test.cpp — the one writer of every page merilo leaves on disk: a
// FIFO, a device or a folder at the path is refused without blocking, a
// symbolic link is replaced (or, when asked, followed) and never has its
// target overwritten by surprise, and a failed write leaves nothing behind.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include <merilo/core/file.hpp>

namespace {

namespace core = merilo::core;
namespace fs = std::filesystem;

std::string fresh_dir(const std::string& name) {
  const fs::path dir =
      fs::path(::testing::TempDir()) / ("merilo-file-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void put(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

// The files in `dir`, names only, sorted.
std::string listing(const std::string& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : " ") + n;
  return out;
}

// Runs `write` and returns what it returned. A writer that blocks on the
// FIFO at `fifo` is freed after five seconds (a reader drains the FIFO) and
// the test fails, so a regression is a failure, not a hung test.
std::string without_hanging(const std::string& fifo, const std::function<std::string()>& write) {
  std::signal(SIGPIPE, SIG_IGN);
  auto done = std::async(std::launch::async, write);
  if (done.wait_for(std::chrono::seconds(5)) == std::future_status::ready) return done.get();
  ADD_FAILURE() << "the write blocked on the FIFO " << fifo;
  const int fd = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  char buf[4096];
  while (done.wait_for(std::chrono::milliseconds(1)) != std::future_status::ready) {
    if (fd >= 0) (void)!::read(fd, buf, sizeof buf);
  }
  if (fd >= 0) ::close(fd);
  return done.get();
}

TEST(WriteFile, CreatesTheFileWithTheTextAndLeavesNoTemporaryFile) {
  const std::string dir = fresh_dir("create");
  EXPECT_EQ(core::write_file(dir + "/page.html", "<p>hello</p>"), "");
  EXPECT_EQ(read(dir + "/page.html"), "<p>hello</p>");
  EXPECT_EQ(listing(dir), "page.html");
}

TEST(WriteFile, ReplacesAnExistingFileAndKeepsItsPermissions) {
  const std::string dir = fresh_dir("replace");
  const std::string path = dir + "/page.html";
  put(path, "an older page, longer than the new one");
  ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
  EXPECT_EQ(core::write_file(path, "new"), "");
  EXPECT_EQ(read(path), "new");
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777U, 0640U);
  EXPECT_EQ(listing(dir), "page.html");
}

TEST(WriteFile, RefusesAFifoAtThePathWithoutBlocking) {
  const std::string dir = fresh_dir("fifo");
  const std::string path = dir + "/page.html";
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  const std::string error = without_hanging(path, [&] { return core::write_file(path, "page"); });
  EXPECT_EQ(error, "cannot write " + path +
                       ": not a regular file (a FIFO, a device or a socket cannot take it)");
  struct stat st {};
  ASSERT_EQ(::lstat(path.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO was replaced";
  EXPECT_EQ(listing(dir), "page.html");
}

TEST(WriteFile, RefusesADeviceAndAFolder) {
  EXPECT_EQ(core::write_file("/dev/null", "page"),
            "cannot write /dev/null: not a regular file (a FIFO, a device or a socket cannot "
            "take it)");
  const std::string dir = fresh_dir("folder");
  EXPECT_EQ(core::write_file(dir, "page"), "cannot write " + dir + ": Is a directory");
}

TEST(WriteFile, ReplacesASymbolicLinkAndLeavesTheFileItNamedUntouched) {
  const std::string dir = fresh_dir("link");
  const std::string source = dir + "/source.cpp";
  const std::string path = dir + "/page.html";
  put(source, "int main() {}\n");
  fs::create_symlink(source, path);
  EXPECT_EQ(core::write_file(path, "<p>page</p>"), "");
  EXPECT_EQ(read(source), "int main() {}\n");
  EXPECT_FALSE(fs::is_symlink(path));
  EXPECT_EQ(read(path), "<p>page</p>");
  EXPECT_EQ(listing(dir), "page.html source.cpp");
}

TEST(WriteFile, ReplacesALinkToAFifoWithoutOpeningTheFifo) {
  const std::string dir = fresh_dir("link-fifo");
  const std::string fifo = dir + "/fifo";
  const std::string path = dir + "/page.html";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  fs::create_symlink(fifo, path);
  EXPECT_EQ(without_hanging(fifo, [&] { return core::write_file(path, "page"); }), "");
  EXPECT_EQ(read(path), "page");
}

TEST(WriteFile, SaysWhyWhenTheFolderIsMissing) {
  EXPECT_EQ(core::write_file("/nonexistent-merilo-dir/page.html", "page"),
            "cannot write /nonexistent-merilo-dir/page.html: No such file or directory");
}

TEST(WriteFile, AFileNameTooLongForATemporaryNameStillWorks) {
  const std::string dir = fresh_dir("long");
  const std::string path = dir + "/" + std::string(250, 'a') + ".html";
  EXPECT_EQ(core::write_file(path, "page"), "");
  EXPECT_EQ(read(path), "page");
  EXPECT_EQ(listing(dir), std::string(250, 'a') + ".html");
}

TEST(FileWriter, WithLinksFollowedWritesTheFileTheLinkNamesAndKeepsTheLink) {
  const std::string dir = fresh_dir("follow");
  const std::string target = dir + "/named.html";
  const std::string path = dir + "/link.html";
  fs::create_symlink(target, path);  // dangling: the writer creates its target
  core::FileWriter file;
  ASSERT_EQ(file.open(path, core::Links::follow), "");
  EXPECT_EQ(file.target(), target);
  EXPECT_EQ(file.commit("page"), "");
  EXPECT_TRUE(fs::is_symlink(path));
  EXPECT_EQ(read(target), "page");
  EXPECT_EQ(listing(dir), "link.html named.html");
}

TEST(FileWriter, WithLinksFollowedRefusesALinkToAFifo) {
  const std::string dir = fresh_dir("follow-fifo");
  const std::string fifo = dir + "/fifo";
  const std::string path = dir + "/link.html";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  fs::create_symlink(fifo, path);
  core::FileWriter file;
  EXPECT_EQ(file.open(path, core::Links::follow),
            "not a regular file (a FIFO, a device or a socket cannot take it)");
}

TEST(FileWriter, DroppedWithoutACommitLeavesTheTargetAsItWasAndNoTemporaryFile) {
  const std::string dir = fresh_dir("drop");
  const std::string path = dir + "/page.html";
  put(path, "old");
  {
    core::FileWriter file;
    ASSERT_EQ(file.open(path), "");
    EXPECT_EQ(listing(dir).find(".page.html."), 0U) << listing(dir);
  }
  EXPECT_EQ(read(path), "old");
  EXPECT_EQ(listing(dir), "page.html");
}

TEST(FileWriter, ACommitWithoutAnOpenSaysSo) {
  core::FileWriter file;
  EXPECT_EQ(file.commit("page"), "no file is open");
}

}  // namespace
