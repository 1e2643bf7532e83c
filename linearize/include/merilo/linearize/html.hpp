// merilo/linearize/html.hpp — a history and its check result as one
// self-contained HTML page.
//
// `render_html(report)` draws an `HtmlReport` — the operations of a history,
// which lane (process, thread) each ran on, and what a check found — as a
// single HTML document a person opens in any browser: no network, no
// external scripts, fonts or images, only inline CSS and a small inline
// script. `write_html(report, path)` writes that page to a file.
//
// The page shows
//
//   * one lane per process, and each operation as a bar from its invoke to
//     its return, labelled with its call and result. An operation that
//     never returned (`returned_at == kNever`: an `info`, a timeout, a
//     crash) is drawn open-ended, dashed, to the right edge;
//   * the order the check found — the linearization, or the longest valid
//     order of a failed or undecided search — as numbers `#1`, `#2`, … on
//     the bars;
//   * the operations where every order gets stuck (`stuck`) in red, and the
//     ones that could have gone next but did not fit (`candidates`) in
//     orange, each with its reason (`HtmlOperation::note`);
//   * the explanation text (the caller's; merilo-lincheck passes what
//     `--explain` prints, the parallel tester the checker's `explain`);
//   * on hover or click, a bar's line number (for a history read from a
//     file), lane, instants and details. Zoom with the buttons or
//     ctrl + mouse wheel; scroll to pan. "Find the stuck operation" scrolls
//     to it.
//
// The page grows linearly with the history (about 280 bytes an operation,
// so 10,000 operations make about 2.8 MB; docs/benchmarks.md) and every bar
// is laid out once by the browser: zooming changes one width.
//
// Example (the stale read of history.hpp's example; the test
// Html.HeaderExampleRenders checks it):
//
// clang-format off
//   using namespace merilo::linearize;
//   HtmlReport report;
//   report.title = "stale read";
//   report.verdict = Verdict::not_linearizable;
//   report.summary = "not linearizable: the read on line 5 cannot follow";
//   report.lanes = {"p0", "p1"};
//   report.operations = {
//       {0, "write 1", "ok", 0, 10, 1, "", ""},
//       {0, "write 2", "ok", 11, 20, 3, "", ""},
//       {1, "read", "1", 21, 30, 5, "", "read 1, but the register held 2"},
//   };
//   report.order = {0, 1};
//   report.stuck = {2};
//   std::string page = render_html(report);  // "<!DOCTYPE html>..."
// clang-format on
//
// NOTE: every string of the report is escaped: a call or result holding
// `<script>` shows as text, never as markup. The page's own script is the
// only one it runs, and it writes "rendered: N lanes, M operations" (or the
// first script error) into the element `#status`, so a headless browser can
// tell that the page came up whole.
//
// NOTE: `render_html` refuses (std::invalid_argument, naming the problem) a
// report whose indices or instants do not fit: an operation's lane past
// `lanes`, an index in `order`, `stuck` or `candidates` past `operations`,
// `returned_at < invoked_at`. `write_html` never throws.
#ifndef MERILO_LINEARIZE_HTML_HPP
#define MERILO_LINEARIZE_HTML_HPP

#include <cstddef>  // std::size_t
#include <cstdint>  // std::int64_t
#include <string>   // text
#include <vector>   // lanes, operations

#include <merilo/linearize/history.hpp>  // kNever
#include <merilo/linearize/model.hpp>    // Verdict

namespace merilo::linearize {

/// One operation as the page draws it.
struct HtmlOperation {
  std::size_t lane = 0;               ///< Index into `HtmlReport::lanes`.
  std::string call;                   ///< What was asked ("write 3").
  std::string result;                 ///< What came back ("7", "info"); "" shows the call alone.
  std::int64_t invoked_at = 0;        ///< When it was invoked (any one unit).
  std::int64_t returned_at = kNever;  ///< When it returned; kNever: open-ended.
  std::size_t line = 0;               ///< Its invoke's line in a file; 0 when none.
  std::string details;                ///< More text shown on click ("" for none).
  std::string note;                   ///< Why it could not go next ("" for none).
};

/// A history and what a check found, ready to draw.
struct HtmlReport {
  std::string title;                      ///< The page's title and heading.
  Verdict verdict = Verdict::undecided;   ///< Colours the summary.
  std::string summary;                    ///< One line under the heading.
  std::string explanation;                ///< Shown as preformatted text.
  std::string time_unit = "ns";           ///< What the instants count ("line", "ns").
  std::vector<std::string> lanes;         ///< Lane names, top to bottom.
  std::vector<HtmlOperation> operations;  ///< Every operation drawn.
  std::vector<std::size_t> order;         ///< Numbered #1, #2, … on the bars.
  std::vector<std::size_t> stuck;         ///< Where every order gets stuck: red.
  std::vector<std::size_t> candidates;    ///< Could have gone next, did not fit: orange.
};

/// `text` with `& < > " '` replaced by their HTML character references.
[[nodiscard]] std::string html_escape(const std::string& text);

/// The page for `report` (see the top of this file). Throws
/// std::invalid_argument when an index or instant does not fit.
[[nodiscard]] std::string render_html(const HtmlReport& report);

/// Writes `render_html(report)` to `path`. Returns "" when it was written,
/// otherwise what went wrong ("cannot write out/x.html: No such file or
/// directory", or render_html's complaint). Never throws.
[[nodiscard]] std::string write_html(const HtmlReport& report, const std::string& path) noexcept;

}  // namespace merilo::linearize

#endif  // MERILO_LINEARIZE_HTML_HPP
