// html_test.cpp — the trace page: a row per step with what changed marked,
// the broken rule at the end, the pinned test, everything from the system
// escaped; and the glue text of framework.hpp that offers it.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include <merilo/explore/explore.hpp>
#include <merilo/explore/framework.hpp>
#include <merilo/explore/html.hpp>

#include "mailbox.hpp"

namespace {

namespace ex = merilo::explore;
using Mailbox = mailbox::System<>;

const ex::Trace kOverflow = {Mailbox::kSend, Mailbox::kSend, Mailbox::kSend};

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs `write`; a writer blocked on the FIFO at `fifo` is freed after five
// seconds (a reader drains it) and the test fails instead of hanging.
std::string without_hanging(const std::string& fifo, const std::function<std::string()>& write) {
  std::signal(SIGPIPE, SIG_IGN);
  auto done = std::async(std::launch::async, write);
  if (done.wait_for(std::chrono::seconds(5)) == std::future_status::ready) return done.get();
  ADD_FAILURE() << "the trace page blocked on the FIFO " << fifo;
  const int fd = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  char buf[4096];
  while (done.wait_for(std::chrono::milliseconds(1)) != std::future_status::ready) {
    if (fd >= 0) (void)!::read(fd, buf, sizeof buf);
  }
  if (fd >= 0) ::close(fd);
  return done.get();
}

// A fresh folder for trace pages, named `name`, under the test's temp dir.
std::string page_dir(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) /
                                    ("merilo-trace-" + std::to_string(::getpid()) + "-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

TEST(TraceHtml, HasARowPerStepAfterTheWorldAtReset) {
  Mailbox sys;
  const std::string page = ex::trace_html(sys, kOverflow);
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0U);
  EXPECT_NE(page.find("<td class=\"k\"><i>reset</i></td><td>sender:idle receiver:waiting</td>"
                      "<td>flight=[] sent=0</td>"),
            std::string::npos);
  EXPECT_EQ(count(page, "<tr class=\"step"), 3U);
  EXPECT_NE(page.find("<td class=\"k\"><i>0</i> send</td>"), std::string::npos);
}

TEST(TraceHtml, MarksOnlyTheWordsThatChangedSinceTheStepBefore) {
  Mailbox sys;
  const std::string page = ex::trace_html(sys, kOverflow);
  // Step 1: the sender moved, the receiver did not; one letter in flight.
  EXPECT_NE(page.find("<td>sender:<mark>posting</mark> receiver:waiting</td>"
                      "<td>flight=[<mark>letter1</mark>] sent=<mark>1</mark></td>"),
            std::string::npos);
  // Step 2: the tuple is unchanged, a second letter joins the first.
  EXPECT_NE(page.find("<td>sender:posting receiver:waiting</td>"
                      "<td>flight=[letter1 <mark>letter2</mark>] sent=<mark>2</mark></td>"),
            std::string::npos);
}

TEST(TraceHtml, MarksTheStepThatBrokeTheRuleAndEndsWithTheRule) {
  Mailbox sys;
  const std::string page = ex::trace_html(sys, kOverflow, {.title = "overflow"});
  EXPECT_NE(page.find("<tr class=\"step broke\" data-step=\"3\">"), std::string::npos);
  EXPECT_EQ(count(page, "broke\""), 1U);
  EXPECT_NE(page.find("<h2>The broken rule</h2><pre id=\"outcome\" class=\"bad\">VIOLATION "
                      "invariant &quot;at most two letters in flight&quot; at step 3: 3 in "
                      "flight</pre>"),
            std::string::npos);
  EXPECT_NE(page.find("<title>overflow</title>"), std::string::npos);
}

TEST(TraceHtml, ShowsThePinnedTestToCopyWhenGivenOne) {
  Mailbox sys;
  const std::string pinned =
      ex::pinned_test(merilo::core::Framework::googletest, "Overflow", ex::ViolationKind::invariant,
                      "mailbox::System<>{}", kOverflow);
  const std::string page = ex::trace_html(sys, kOverflow, {.pinned_test = pinned});
  EXPECT_NE(page.find("<pre id=\"pinned\">TEST(Replay, Overflow_invariant) {\n"
                      "  auto sys = mailbox::System&lt;&gt;{};\n"),
            std::string::npos);
  EXPECT_NE(page.find("<button id=\"copy\">"), std::string::npos);
  EXPECT_EQ(ex::trace_html(sys, kOverflow).find("id=\"pinned\""), std::string::npos);
}

TEST(TraceHtml, EscapesEverythingTheSystemSays) {
  mailbox::System<true> sys;
  const std::string page = ex::trace_html(
      sys, kOverflow,
      {.title = mailbox::kHostile, .context = mailbox::kHostile, .pinned_test = mailbox::kHostile});
  EXPECT_EQ(count(page, "<script>"), 1U) << "only the page's own script";
  EXPECT_EQ(page.find("<img"), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;document.getElementById(&#39;status&#39;)"),
            std::string::npos);
}

TEST(TraceHtml, SaysWhenTheTraceNoLongerFits) {
  Mailbox sys;
  const std::string page = ex::trace_html(sys, {Mailbox::kReceive});
  EXPECT_NE(page.find("class=\"odd\">the trace does not fit: step 1 takes kind 1 (receive), "
                      "which is not enabled there"),
            std::string::npos);
  EXPECT_EQ(page.find("broke\""), std::string::npos);
}

TEST(TraceHtml, SaysWhenTheTraceBreaksNoRule) {
  Mailbox sys;
  const std::string page = ex::trace_html(sys, {Mailbox::kSend, Mailbox::kReceive});
  EXPECT_NE(page.find("class=\"good\">OK: 2 steps, no rule broken"), std::string::npos);
}

TEST(TraceHtml, WriteNamesThePathItCouldNotWrite) {
  Mailbox sys;
  const std::string error =
      ex::write_trace_html(sys, kOverflow, "/nonexistent-merilo-dir/trace.html");
  EXPECT_NE(error.find("cannot write /nonexistent-merilo-dir/trace.html: "), std::string::npos)
      << error;
}

TEST(TraceHtml, WriteWritesThePage) {
  Mailbox sys;
  const std::string path = ::testing::TempDir() + "merilo_trace_html_test.html";
  ASSERT_EQ(ex::write_trace_html(sys, kOverflow, path), "");
  EXPECT_EQ(read(path), ex::trace_html(sys, kOverflow));
}

TEST(GlueText, PinsATestInEachFrameworksSyntax) {
  const ex::Trace t = {0, 1};
  EXPECT_EQ(
      ex::pinned_test(merilo::core::Framework::googletest, "Finds", ex::ViolationKind::deadlock, "S{}", t),
      "TEST(Replay, Finds_deadlock) {\n  auto sys = S{};\n"
      "  merilo::testing::expect_replay_ok(sys, merilo::explore::Trace{0, 1});\n}\n");
  EXPECT_EQ(
      ex::pinned_test(merilo::core::Framework::catch2, "finds \"it\"", ex::ViolationKind::deadlock, "S{}", t),
      "TEST_CASE(\"finds \\\"it\\\": pinned deadlock\") {\n  auto sys = S{};\n"
      "  merilo::with_catch2::expect_replay_ok(sys, merilo::explore::Trace{0, 1});\n}\n");
  EXPECT_EQ(
      ex::pinned_test(merilo::core::Framework::doctest, "finds", ex::ViolationKind::apply_error, "S{}", t),
      "TEST_CASE(\"finds: pinned apply error\") {\n  auto sys = S{};\n"
      "  merilo::with_doctest::expect_replay_ok(sys, merilo::explore::Trace{0, 1});\n}\n");
}

TEST(GlueText, WritesTheTracePageWhereMeriloTraceHtmlSays) {
  Mailbox sys;
  const ex::ExploreOptions options{.max_states = 100, .quiet = true};
  const ex::ExploreResult r = ex::explore(sys, options);
  ASSERT_TRUE(r.violation.found());
  ::unsetenv("MERILO_TRACE_HTML");
  EXPECT_EQ(ex::explore_failure(sys, options, r, merilo::core::Framework::catch2, "finds it")
                .find("trace as a page"),
            std::string::npos);
  ::setenv("MERILO_TRACE_HTML", ::testing::TempDir().c_str(), 1);
  const std::string message =
      ex::explore_failure(sys, options, r, merilo::core::Framework::catch2, "finds it");
  ::unsetenv("MERILO_TRACE_HTML");
  std::string dir = ::testing::TempDir();
  if (dir.back() != '/') dir += '/';
  const std::string path = dir + "finds_it__pinned_invariant.html";
  EXPECT_NE(message.find("The trace as a page: " + path), std::string::npos) << message;
  const std::string page = read(path);
  EXPECT_NE(page.find("<pre id=\"pinned\">TEST_CASE(&quot;finds it: pinned invariant&quot;)"),
            std::string::npos);
  EXPECT_NE(page.find("<tr class=\"step broke\" data-step=\"3\">"), std::string::npos);
}

TEST(GlueText, SaysWhyTheTracePageWasNotWritten) {
  Mailbox sys;
  const ex::ExploreOptions options{.max_states = 100, .quiet = true};
  const ex::ExploreResult r = ex::explore(sys, options);
  ::setenv("MERILO_TRACE_HTML", "/nonexistent-merilo-dir", 1);
  const std::string message =
      ex::explore_failure(sys, options, r, merilo::core::Framework::googletest, "Finds");
  ::unsetenv("MERILO_TRACE_HTML");
  EXPECT_NE(message.find("The trace page was not written: cannot write "
                         "/nonexistent-merilo-dir/Finds_invariant.html"),
            std::string::npos)
      << message;
}

TEST(GlueText, AFifoAtTheTracePagePathIsRefusedWithoutBlocking) {
  Mailbox sys;
  const ex::ExploreOptions options{.max_states = 100, .quiet = true};
  const ex::ExploreResult r = ex::explore(sys, options);
  const std::string dir = page_dir("fifo");
  const std::string path = dir + "/Finds_invariant.html";
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  ::setenv("MERILO_TRACE_HTML", dir.c_str(), 1);
  const std::string message = without_hanging(path, [&] {
    return ex::explore_failure(sys, options, r, merilo::core::Framework::googletest, "Finds");
  });
  ::unsetenv("MERILO_TRACE_HTML");
  EXPECT_NE(
      message.find("The trace page was not written: cannot write " + path + ": not a regular file"),
      std::string::npos)
      << message;
  struct stat st {};
  ASSERT_EQ(::lstat(path.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST(GlueText, ASymbolicLinkAtTheTracePagePathIsReplacedAndItsTargetLeftUntouched) {
  Mailbox sys;
  const ex::ExploreOptions options{.max_states = 100, .quiet = true};
  const ex::ExploreResult r = ex::explore(sys, options);
  const std::string dir = page_dir("link");
  const std::string source = dir + "/mailbox.cpp";
  const std::string path = dir + "/Finds_invariant.html";
  { std::ofstream(source) << "int main() {}\n"; }
  std::filesystem::create_symlink(source, path);
  ::setenv("MERILO_TRACE_HTML", dir.c_str(), 1);
  const std::string message =
      ex::explore_failure(sys, options, r, merilo::core::Framework::googletest, "Finds");
  ::unsetenv("MERILO_TRACE_HTML");
  EXPECT_NE(message.find("The trace as a page: " + path), std::string::npos) << message;
  EXPECT_EQ(read(source), "int main() {}\n");
  EXPECT_FALSE(std::filesystem::is_symlink(path));
  EXPECT_EQ(read(path).rfind("<!DOCTYPE html>", 0), 0U);
}

}  // namespace
