// html.cpp — a replayed trace as one self-contained HTML page: a table row
// per step with the words that changed since the step before marked, the
// outcome, the pinned test, inline CSS and a small inline script.
#include <merilo/explore/html.hpp>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include <merilo/core/html.hpp>

namespace merilo::explore::detail {

namespace {

constexpr const char* kStyle = R"css(
*{box-sizing:border-box}
body{margin:0;font:13px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d232b;background:#fafbfc}
header{padding:10px 16px 8px;border-bottom:1px solid #d8dee4;background:#fff}
h1{font-size:17px;margin:0 0 4px}
h2{font-size:14px;margin:6px 0}
.context{margin:0 0 4px;color:#57606a}
.outcome{margin:0;font-weight:600;white-space:pre-wrap}
.bad{color:#c4231c}.good{color:#1a7f37}.odd{color:#9a6700}
section{padding:6px 16px}
table{border-collapse:collapse;background:#fff;border:1px solid #d8dee4;font:12px/1.45 ui-monospace,Menlo,Consolas,monospace}
th,td{padding:3px 8px;border-bottom:1px solid #eef1f4;text-align:left;vertical-align:top;white-space:pre-wrap}
th{background:#f6f8fa;position:sticky;top:0}
td.n{color:#8c959f;text-align:right}
td.k i{color:#8c959f;font-style:normal}
tr.initial td{color:#57606a}
tr.broke td{background:#fde8e7}
tr.broke td.n{color:#c4231c;font-weight:600}
mark{background:#ffe08a;border-radius:2px;padding:0 1px}
pre{margin:0;padding:8px;overflow-x:auto;font:12px/1.45 ui-monospace,Menlo,Consolas,monospace;background:#fff;border:1px solid #d8dee4;border-radius:4px;white-space:pre-wrap}
button{font:inherit;padding:1px 9px;border:1px solid #b6bec7;border-radius:4px;background:#f3f5f7;cursor:pointer}
#status{padding:4px 16px;color:#8c959f;font-size:11px}
)css";

// The page's only script: a copy button for the pinned test and a status
// line a headless browser reads to know the page came up whole.
constexpr const char* kScript = R"js(
(function () {
  var st = document.getElementById('status');
  window.addEventListener('error', function (e) {
    st.dataset.state = 'error';
    st.textContent = 'script error: ' + e.message;
  });
  var copy = document.getElementById('copy');
  var pinned = document.getElementById('pinned');
  if (copy && pinned) {
    copy.onclick = function () {
      var done = function () { copy.textContent = 'copied'; };
      if (navigator.clipboard) {
        navigator.clipboard.writeText(pinned.textContent).then(done, function () {
          copy.textContent = 'select the text to copy it';
        });
      } else {
        copy.textContent = 'select the text to copy it';
      }
    };
  }
  var steps = document.querySelectorAll('#trace tbody tr.step').length;
  var msg = 'rendered: ' + steps + ' steps, ' +
      document.querySelectorAll('#trace mark').length + ' changes marked';
  var broke = document.querySelector('#trace tr.broke');
  if (broke) {
    msg += '; broke at step ' + broke.dataset.step + ' drawn in ' +
        getComputedStyle(broke.cells[0]).backgroundColor;
  }
  if (pinned) msg += '; pinned test of ' + pinned.textContent.split('\n').length + ' lines';
  if (st.dataset.state !== 'error') {
    st.dataset.state = 'ok';
    st.textContent = msg;
  }
})();
)js";

// A word of a tuple or `show` text: a run of letters, digits and `_.-`, or
// any other single character (spaces, brackets, `=`, `:`), so a change of
// one machine's state marks that state, not the whole tuple.
std::vector<std::string_view> words(std::string_view text) {
  std::vector<std::string_view> out;
  const auto in_word = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.' || c == '-';
  };
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t j = i + 1;
    if (in_word(text[i])) {
      while (j < text.size() && in_word(text[j])) ++j;
    }
    out.push_back(text.substr(i, j - i));
    i = j;
  }
  return out;
}

// `now`, escaped, with every word outside a longest common subsequence with
// `before` in <mark>: what is new since the row before. Counts the marks.
std::string marked(std::string_view before, std::string_view now, std::size_t& marks) {
  const std::vector<std::string_view> a = words(before);
  const std::vector<std::string_view> b = words(now);
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
  std::vector<std::vector<std::size_t>> lcs(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = a.size(); i-- > 0;) {
    for (std::size_t j = b.size(); j-- > 0;) {
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  std::vector<char> kept(b.size(), 0);
  for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (a[i] == b[j]) {
      kept[j] = 1;
      ++i;
      ++j;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
      ++i;
    } else {
      ++j;
    }
  }
  std::string out;
  bool open = false;
  for (std::size_t j = 0; j < b.size(); ++j) {
    // A changed space alone is not worth a mark; it joins a mark around it.
    const bool blank = b[j] == " ";
    if (!kept[j] && !open && !blank) {
      out += "<mark>";
      open = true;
      ++marks;
    } else if (kept[j] && open) {
      out += "</mark>";
      open = false;
    }
    out += core::html_escape(b[j]);
  }
  if (open) out += "</mark>";
  return out;
}

/// The banner that ends a page: its CSS class and its words.
struct Banner {
  const char* css;
  std::string text;
};

Banner banner(const Replayed& r) {
  if (!r.error.empty()) return {"odd", r.error};
  if (r.violation.found()) return {"bad", "VIOLATION " + r.violation.summary()};
  return {"good", fmt::format("OK: {} steps, no rule broken", r.steps)};
}

}  // namespace

std::string render_trace_page(const TracePage& page) {
  const bool shows =
      !page.initial.show.empty() ||
      std::any_of(page.rows.begin(), page.rows.end(), [](const Row& r) { return !r.show.empty(); });
  const std::string title =
      core::html_escape(page.options.title.empty() ? "merilo trace" : page.options.title);
  const Banner end = banner(page.replayed);
  // The row that broke the rule: the last one, when the replay found a
  // violation at a step (a nondeterminism verdict names the whole trace).
  const bool broke = page.replayed.violation.found() && !page.rows.empty() &&
                     page.replayed.violation.kind != ViolationKind::nondeterminism;

  std::string out;
  out.reserve(4096 + page.rows.size() * 200);
  auto it = std::back_inserter(out);
  fmt::format_to(it,
                 "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                 "<meta name=\"generator\" content=\"merilo::explore\">\n"
                 "<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n<header>\n<h1>{}</h1>\n",
                 title, kStyle, title);
  if (!page.options.context.empty()) {
    fmt::format_to(it, "<p class=\"context\">{}</p>\n", core::html_escape(page.options.context));
  }
  fmt::format_to(it, "<p class=\"outcome {}\" id=\"summary\">{}</p>\n</header>\n", end.css,
                 core::html_escape(end.text));

  out += "<section><table id=\"trace\"><thead><tr><th>#</th><th>kind</th><th>tuple</th>";
  if (shows) out += "<th>world</th>";
  out += "</tr></thead>\n<tbody>\n";
  std::size_t marks = 0;
  if (!page.rows.empty()) {
    fmt::format_to(it,
                   "<tr class=\"initial\"><td class=\"n\">0</td><td class=\"k\"><i>reset</i></td>"
                   "<td>{}</td>",
                   core::html_escape(page.initial.tuple));
    if (shows) fmt::format_to(it, "<td>{}</td>", core::html_escape(page.initial.show));
    out += "</tr>\n";
  }
  const Row* before = &page.initial;
  for (std::size_t i = 0; i < page.rows.size(); ++i) {
    const Row& row = page.rows[i];
    const bool last = i + 1 == page.rows.size();
    fmt::format_to(it, "<tr class=\"step{}\" data-step=\"{}\"><td class=\"n\">{}</td>",
                   broke && last ? " broke" : "", i + 1, i + 1);
    const std::string kind = i < page.trace.size() ? fmt::format("{}", page.trace[i]) : "?";
    fmt::format_to(it, "<td class=\"k\"><i>{}</i> {}</td><td>{}</td>", kind,
                   core::html_escape(row.description), marked(before->tuple, row.tuple, marks));
    if (shows) fmt::format_to(it, "<td>{}</td>", marked(before->show, row.show, marks));
    out += "</tr>\n";
    before = &row;
  }
  out += "</tbody></table></section>\n";
  fmt::format_to(it, "<section><h2>{}</h2><pre id=\"outcome\" class=\"{}\">{}</pre></section>\n",
                 page.replayed.violation.found() ? "The broken rule" : "Outcome", end.css,
                 core::html_escape(end.text));
  if (!page.options.pinned_test.empty()) {
    fmt::format_to(it,
                   "<section><h2>Pin it <button id=\"copy\">copy</button></h2>"
                   "<p>This test fails while the bug is there; paste it into a test file.</p>"
                   "<pre id=\"pinned\">{}</pre></section>\n",
                   core::html_escape(page.options.pinned_test));
  }
  fmt::format_to(it,
                 "<div id=\"status\" data-state=\"loading\" data-marks=\"{}\">the script did not "
                 "run</div>\n<script>{}</script>\n</body>\n</html>\n",
                 marks, kScript);
  return out;
}

}  // namespace merilo::explore::detail
