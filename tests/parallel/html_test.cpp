// html_test.cpp — write_html/html_report: a real not-linearizable race drawn
// with a lane per branch, the checker's placed calls numbered and its stuck
// calls marked with their reasons, the report text under it; a failure with
// no race; bad call references and unwritable paths as clear errors.
#include <cstddef>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include <merilo/linearize/html.hpp>
#include <merilo/parallel/html.hpp>
#include <merilo/parallel/parallel.hpp>

#include "probe.hpp"

namespace {

namespace parallel = merilo::parallel;
namespace lin = merilo::linearize;
using probe::Op;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(ParallelHtml, ANotLinearizableRaceIsDrawn) {
  probe::Spec spec;
  // A read answers a count no order can give. With no prefix drawn, the
  // first failure is a race, and shrinking keeps its tag (a read moved into
  // the prefix fails with the spec's own tag instead).
  spec.hooks->alter = [](Op op, std::int64_t got) { return op == Op::read ? got + 100 : got; };
  const auto r = parallel::check(spec, {.seed = 3, .max_prefix = 0});
  ASSERT_TRUE(r.failure.has_value()) << r.error;
  const auto& f = *r.failure;
  ASSERT_EQ(f.violation.tag, parallel::kNotLinearizableTag) << parallel::report(f);
  ASSERT_EQ(f.evidence, parallel::Evidence::raced);
  // The checker's dead end travels with the failure: one stuck call per
  // branch that still had calls, each a real call of the shrunk race.
  ASSERT_FALSE(f.stuck.empty());
  for (const auto& s : f.stuck) {
    ASSERT_LT(s.call.history, f.histories.size());
    ASSERT_LT(s.call.index, f.histories[s.call.history].size());
    EXPECT_FALSE(s.reason.empty());
  }
  bool a_read_violates = false;
  for (const auto& s : f.stuck) {
    a_read_violates =
        a_read_violates || (f.histories[s.call.history][s.call.index].command == Op::read &&
                            s.reason.rfind("violates: probe.value", 0) == 0);
  }
  EXPECT_TRUE(a_read_violates) << parallel::report(f);

  const lin::HtmlReport page = parallel::html_report(f);
  EXPECT_EQ(page.lanes.size(), f.histories.size());
  EXPECT_EQ(page.order.size(), f.placed.size());
  EXPECT_EQ(page.stuck.size(), f.stuck.size());
  EXPECT_EQ(page.verdict, lin::Verdict::not_linearizable);
  EXPECT_EQ(page.explanation, parallel::report(f));

  const std::string path = ::testing::TempDir() + "merilo_parallel_race.html";
  ASSERT_EQ(parallel::write_html(f, path), "");
  const std::string html = read_file(path);
  std::remove(path.c_str());
  EXPECT_EQ(html, lin::render_html(page));
  EXPECT_EQ(count(html, "<div class=\"lane\""), f.histories.size());
  EXPECT_EQ(count(html, " stuck\""), f.stuck.size());
  EXPECT_NE(html.find("data-n=\"could not go next: violates: probe.value"), std::string::npos);
  EXPECT_NE(html.find("merilo::parallel::check_run(spec, {.seed = 3"), std::string::npos);
}

parallel::Failure<int, int> raced() {
  parallel::Failure<int, int> f;
  f.seed = 7;
  f.branches = 2;
  f.violation = {std::string(parallel::kNotLinearizableTag), "no order fits"};
  f.original_violation = f.violation;
  f.evidence = parallel::Evidence::raced;
  f.original = {.prefix = {}, .branches = {{1, 2}, {3}}};
  f.shrunk = f.original;
  f.histories = {{{1, 10, 1'000, 3'000}, {2, 20, 5'000, 6'000}}, {{3, 30, 2'000, 2'500}}};
  f.placed = {{0, 0}, {1, 0}};
  f.stuck = {{{0, 1}, "violates <x>"}};
  return f;
}

TEST(ParallelHtml, PlacedCallsAreNumberedAcrossBranches) {
  const lin::HtmlReport page = parallel::html_report(raced());
  ASSERT_EQ(page.operations.size(), 3U);
  // Branch-major: branch 0's calls are 0 and 1, branch 1's call is 2.
  EXPECT_EQ(page.order, (std::vector<std::size_t>{0, 2}));
  EXPECT_EQ(page.stuck, (std::vector<std::size_t>{1}));
  EXPECT_EQ(page.operations[2].lane, 1U);
  EXPECT_EQ(page.operations[2].call, "3");
  EXPECT_EQ(page.operations[2].result, "30");
  // Instants count from the race's first invoke (1,000 ns here).
  EXPECT_EQ(page.operations[0].invoked_at, 0);
  EXPECT_EQ(page.operations[2].invoked_at, 1'000);
  EXPECT_EQ(page.operations[2].returned_at, 1'500);
  EXPECT_EQ(page.operations[1].note, "could not go next: violates <x>");
  const std::string html = lin::render_html(page);
  EXPECT_NE(html.find("violates &lt;x&gt;"), std::string::npos);
  EXPECT_EQ(html.find("violates <x>"), std::string::npos);
}

TEST(ParallelHtml, AFailureWithoutARaceHasNoBarsButItsReport) {
  parallel::Failure<int, int> f = raced();
  f.evidence = parallel::Evidence::in_prefix;
  f.violation = {"spec.value", "read 3, expected 2"};
  f.histories.clear();
  f.placed.clear();
  f.stuck.clear();
  const lin::HtmlReport page = parallel::html_report(f);
  EXPECT_TRUE(page.operations.empty());
  EXPECT_EQ(page.summary, "spec.value: read 3, expected 2");
  EXPECT_EQ(page.explanation, parallel::report(f));
}

TEST(ParallelHtml, BadReferencesAndPathsAreClearErrors) {
  parallel::Failure<int, int> f = raced();
  f.stuck = {{{1, 4}, "?"}};
  EXPECT_EQ(parallel::write_html(f, "/dev/null"),
            "Failure::stuck names branch 1 call 4, which the histories do not have");
  EXPECT_EQ(parallel::write_html(raced(), "/nonexistent-merilo-dir/race.html"),
            "cannot write /nonexistent-merilo-dir/race.html: No such file or directory");
}

}  // namespace
