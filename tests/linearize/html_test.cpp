// html_test.cpp — render_html/write_html: the page's parts, escaping, bad
// reports refused, open-ended bars, the order's numbers, files written or a
// clear error, and a 10,000-operation history staying small.
#include <merilo/linearize/html.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace merilo::linearize {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

HtmlReport stale_read() {  // the example at the top of html.hpp
  HtmlReport report;
  report.title = "stale read";
  report.verdict = Verdict::not_linearizable;
  report.summary = "not linearizable: the read on line 5 cannot follow";
  report.lanes = {"p0", "p1"};
  report.operations = {
      {0, "write 1", "ok", 0, 10, 1, "", ""},
      {0, "write 2", "ok", 11, 20, 3, "", ""},
      {1, "read", "1", 21, 30, 5, "", "read 1, but the register held 2"},
  };
  report.order = {0, 1};
  report.stuck = {2};
  return report;
}

/// The opening tag of the bar for operation `i`.
std::string bar_tag(const std::string& page, std::size_t i) {
  const std::string key = "data-i=\"" + std::to_string(i) + "\"";
  const std::size_t at = page.find(key);
  if (at == std::string::npos) return {};
  const std::size_t open = page.rfind("<div", at);
  return page.substr(open, page.find('>', at) - open + 1);
}

TEST(Html, HeaderExampleRenders) {
  const std::string page = render_html(stale_read());
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0U);
  EXPECT_NE(page.find("<title>stale read</title>"), std::string::npos);
  EXPECT_NE(page.find("not linearizable: the read on line 5 cannot follow"), std::string::npos);
  EXPECT_EQ(count(page, "<div class=\"lane\""), 2U);
  EXPECT_EQ(count(page, "<div class=\"op"), 3U);
  // The longest valid order is numbered on its bars; the read is the stuck one.
  EXPECT_NE(bar_tag(page, 0).find("class=\"op placed\""), std::string::npos);
  EXPECT_NE(page.find("#1 write 1 → ok</div>"), std::string::npos);
  EXPECT_NE(page.find("#2 write 2 → ok</div>"), std::string::npos);
  const std::string stuck = bar_tag(page, 2);
  EXPECT_NE(stuck.find("class=\"op stuck\""), std::string::npos) << stuck;
  EXPECT_NE(stuck.find("data-line=\"5\""), std::string::npos) << stuck;
  EXPECT_NE(stuck.find("data-n=\"read 1, but the register held 2\""), std::string::npos) << stuck;
  EXPECT_NE(stuck.find("invoked at 21 ns, returned: 30 ns"), std::string::npos) << stuck;
  EXPECT_NE(page.find("3 operations, 2 lanes; time unit: ns"), std::string::npos);
  HtmlReport quiet = stale_read();
  quiet.operations[0].result = "";
  EXPECT_NE(render_html(quiet).find(">#1 write 1</div>"), std::string::npos);
}

TEST(Html, InstantsOfAHistoryTimedByLinesReadAsLines) {
  HtmlReport report = stale_read();
  report.time_unit = "line";
  report.lanes = {"p0"};
  report.operations = {report.operations[0]};
  report.order = {};
  report.stuck = {};
  const std::string page = render_html(report);
  EXPECT_NE(bar_tag(page, 0).find("invoked at line 0, returned: line 10"), std::string::npos);
  EXPECT_NE(page.find("1 operation, 1 lane; time unit: line"), std::string::npos);
}

TEST(Html, SelfContained) {
  const std::string page = render_html(stale_read());
  EXPECT_EQ(count(page, "<script"), 1U);
  EXPECT_EQ(page.find("<script src"), std::string::npos);
  EXPECT_EQ(page.find("<link"), std::string::npos);
  EXPECT_EQ(page.find("http://"), std::string::npos);
  EXPECT_EQ(page.find("https://"), std::string::npos);
  EXPECT_EQ(page.find("@import"), std::string::npos);
  EXPECT_EQ(page.find("url("), std::string::npos);
}

TEST(Html, EscapesEveryUserString) {
  const std::string evil = "<script>alert('x')</script>\"&";
  HtmlReport report = stale_read();
  report.title = evil;
  report.summary = evil;
  report.explanation = evil;
  report.time_unit = evil;
  report.lanes = {evil, "<b>p1</b>"};
  for (HtmlOperation& op : report.operations) {
    op.call = evil;
    op.result = evil;
    op.details = evil;
    op.note = evil;
  }
  const std::string page = render_html(report);
  EXPECT_EQ(count(page, "<script"), 1U);  // only the page's own
  EXPECT_EQ(page.find("<b>"), std::string::npos);
  EXPECT_EQ(page.find("alert('x')"), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;&amp;"),
            std::string::npos);
  // No attribute is closed early by a user's quote.
  EXPECT_EQ(page.find("\"&\""), std::string::npos);
  EXPECT_EQ(html_escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;");
}

TEST(Html, OpenEndedOperationsRunToTheRightEdge) {
  HtmlReport report = stale_read();
  report.operations[0].returned_at = kNever;
  report.operations[0].result = "info";
  const std::string page = render_html(report);
  const std::string bar = bar_tag(page, 0);
  EXPECT_NE(bar.find("class=\"op open placed\""), std::string::npos) << bar;
  EXPECT_NE(bar.find("left:0.0000%;width:100.0000%"), std::string::npos) << bar;
  // A bar that returned ends before the right edge: the span has a margin.
  const std::string read = bar_tag(page, 2);
  const std::smatch m = [&] {
    std::smatch out;
    std::regex_search(read, out, std::regex("left:([0-9.]+)%;width:([0-9.]+)%"));
    return out;
  }();
  ASSERT_EQ(m.size(), 3U) << read;
  EXPECT_LT(std::stod(m[1].str()) + std::stod(m[2].str()), 99.0);
  EXPECT_NE(bar.find("returned: never"), std::string::npos) << bar;
}

TEST(Html, RefusesIndicesThatDoNotFit) {
  HtmlReport report = stale_read();
  report.operations[1].lane = 2;
  EXPECT_THROW(
      {
        try {
          (void)render_html(report);
        } catch (const std::invalid_argument& e) {
          EXPECT_STREQ(e.what(), "HtmlReport operation 1 is on lane 2, but there are only 2 lanes");
          throw;
        }
      },
      std::invalid_argument);
  report = stale_read();
  report.stuck = {3};
  EXPECT_THROW((void)render_html(report), std::invalid_argument);
  report = stale_read();
  report.order = {0, 7};
  EXPECT_THROW((void)render_html(report), std::invalid_argument);
  report = stale_read();
  report.candidates = {9};
  EXPECT_THROW((void)render_html(report), std::invalid_argument);
  report = stale_read();
  report.operations[2].returned_at = 5;
  EXPECT_EQ(write_html(report, "/dev/null"),
            "HtmlReport operation 2 returned at 5, before it was invoked at 21");
}

TEST(Html, EmptyHistoryStillRenders) {
  HtmlReport report;
  report.verdict = Verdict::linearizable;
  const std::string page = render_html(report);
  EXPECT_NE(page.find("<p class=\"verdict v-lin\" id=\"summary\">linearizable</p>"),
            std::string::npos);
  EXPECT_EQ(count(page, "<div class=\"op"), 0U);
}

TEST(Html, WritesAFileOrSaysWhyNot) {
  const std::string path = ::testing::TempDir() + "merilo_html_test.html";
  ASSERT_EQ(write_html(stale_read(), path), "");
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), render_html(stale_read()));
  std::remove(path.c_str());
  EXPECT_EQ(write_html(stale_read(), "/nonexistent-dir/x.html"),
            "cannot write /nonexistent-dir/x.html: No such file or directory");
}

TEST(Html, TenThousandOperationsStaySmall) {
  HtmlReport report;
  report.verdict = Verdict::not_linearizable;
  constexpr std::size_t kLanes = 50;
  constexpr std::size_t kOps = 10'000;
  for (std::size_t l = 0; l < kLanes; ++l)
    report.lanes.push_back(std::string("p").append(std::to_string(l)));
  for (std::size_t i = 0; i < kOps; ++i) {
    const auto t = static_cast<std::int64_t>(i) * 1000;
    report.operations.push_back({i % kLanes, "write " + std::to_string(i), "ok", t, t + 30'000,
                                 i + 1, "completed on line " + std::to_string(i + 2), ""});
    if (i < kOps / 2) report.order.push_back(i);
  }
  report.stuck = {kOps / 2};
  const std::string page = render_html(report);
  EXPECT_EQ(count(page, "<div class=\"op"), kOps);
  EXPECT_LT(page.size(), std::size_t{5} << 20U);
  // Linear: twice the operations, at most a little over twice the bytes.
  report.operations.resize(kOps / 2);
  report.order.resize(kOps / 4);
  report.stuck = {kOps / 4};
  const std::string half = render_html(report);
  EXPECT_LT(static_cast<double>(page.size()), 2.2 * static_cast<double>(half.size()));
}

}  // namespace
}  // namespace merilo::linearize
