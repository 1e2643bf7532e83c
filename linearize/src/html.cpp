// html.cpp — an HtmlReport as one self-contained HTML page: escaped text,
// bars placed in percent of the time span, inline CSS and script.
#include <merilo/linearize/html.hpp>

#include <merilo/core/html.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <limits>
#include <stdexcept>

namespace merilo::linearize {

namespace {

constexpr std::size_t kLaneHeight = 26;  // px per lane (as in the CSS)
constexpr std::size_t kBarTop = 3;       // px from a lane's top to its bars

constexpr const char* kStyle = R"css(
*{box-sizing:border-box}
body{margin:0;font:13px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d232b;background:#fafbfc}
header{padding:10px 16px 6px;border-bottom:1px solid #d8dee4;background:#fff}
h1{font-size:17px;margin:0 0 4px}
.verdict{margin:0 0 6px;font-weight:600;white-space:pre-wrap}
.v-lin{color:#1a7f37}.v-not{color:#c4231c}.v-und{color:#9a6700}.v-err{color:#57606a}
.tools{display:flex;gap:6px;align-items:center;flex-wrap:wrap}
.tools button{font:inherit;padding:1px 9px;border:1px solid #b6bec7;border-radius:4px;background:#f3f5f7;cursor:pointer}
.tools button:hover{background:#e4e8ec}
.legend{display:flex;gap:12px;margin-left:12px;color:#57606a}
.legend i{display:inline-block;width:22px;height:11px;margin-right:4px;vertical-align:-1px;border:1px solid #5a7fb0;background:#cfe0f5;border-radius:2px}
.legend i.l-open{border-style:dashed;background:#eef2f6}
.legend i.l-placed{background:#9cc2ee}
.legend i.l-stuck{background:#e0352b;border-color:#8e1510}
.legend i.l-cand{background:#ffd8a8;border-color:#d9730d}
#view{display:flex;max-height:68vh;overflow-y:auto;border-bottom:1px solid #d8dee4;background:#fff}
#names{flex:0 0 auto;min-width:64px;max-width:180px;border-right:1px solid #d8dee4;background:#f6f8fa}
#names div{height:26px;line-height:26px;padding:0 8px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;font-weight:600;color:#424a53}
#scroll{flex:1 1 auto;overflow-x:auto;overflow-y:hidden;position:relative}
#canvas{position:relative;width:100%;min-width:100%}
.lane{position:absolute;left:0;right:0;height:26px;border-bottom:1px solid #eef1f4}
.lane:nth-child(even){background:#fbfcfd}
.op{position:absolute;height:20px;min-width:3px;padding:0 4px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis;
  font-size:12px;line-height:18px;border:1px solid #5a7fb0;border-radius:3px;background:#cfe0f5;cursor:pointer}
.op:hover,.op.pinned{outline:2px solid #1d232b;z-index:3}
.op.placed{background:#9cc2ee}
.op.open{border-style:dashed;background:linear-gradient(90deg,#cfe0f5,#eef2f6 60%,rgba(238,242,246,0))}
.op.placed.open{background:linear-gradient(90deg,#9cc2ee,#e4edf7 60%,rgba(228,237,247,0))}
.op.cand{background:#ffd8a8;border-color:#d9730d;z-index:1}
.op.stuck{background:#e0352b;border:2px solid #8e1510;color:#fff;font-weight:600;z-index:2}
#details{margin:0;padding:8px 16px;min-height:4.5em;white-space:pre-wrap;font:12px/1.45 ui-monospace,Menlo,Consolas,monospace;background:#f6f8fa;border-bottom:1px solid #d8dee4}
section{padding:6px 16px}
h2{font-size:14px;margin:6px 0}
pre{margin:0;padding:8px;overflow-x:auto;font:12px/1.45 ui-monospace,Menlo,Consolas,monospace;background:#fff;border:1px solid #d8dee4;border-radius:4px}
#status{padding:4px 16px;color:#8c959f;font-size:11px}
)css";

constexpr const char* kScript = R"js(
(function () {
  var st = document.getElementById('status');
  window.addEventListener('error', function (e) {
    st.dataset.state = 'error';
    st.textContent = 'script error: ' + e.message;
  });
  var canvas = document.getElementById('canvas');
  var scroll = document.getElementById('scroll');
  var view = document.getElementById('view');
  var level = document.getElementById('zoom-level');
  var details = document.getElementById('details');
  var zoom = 1;
  function setZoom(z, anchor) {
    z = Math.min(Math.max(z, 1), 65536);
    var x = anchor === undefined ? scroll.clientWidth / 2 : anchor;
    var at = (scroll.scrollLeft + x) / canvas.offsetWidth;
    zoom = z;
    canvas.style.width = (z * 100) + '%';
    scroll.scrollLeft = at * canvas.offsetWidth - x;
    level.textContent = (z < 10 ? z.toFixed(1) : Math.round(z)) + '\u00d7';
  }
  document.getElementById('zoom-in').onclick = function () { setZoom(zoom * 2); };
  document.getElementById('zoom-out').onclick = function () { setZoom(zoom / 2); };
  document.getElementById('zoom-fit').onclick = function () { setZoom(1); };
  scroll.addEventListener('wheel', function (e) {
    if (!e.ctrlKey) return;
    e.preventDefault();
    var r = scroll.getBoundingClientRect();
    setZoom(zoom * (e.deltaY < 0 ? 1.25 : 0.8), e.clientX - r.left);
  }, { passive: false });
  function show(el) {
    var text = el.title;
    if (el.dataset.d) text += '\n' + el.dataset.d;
    if (el.dataset.n) text += '\n' + el.dataset.n;
    details.textContent = text;
  }
  var pinned = null;
  canvas.addEventListener('mouseover', function (e) {
    var el = e.target.closest('.op');
    if (el && !pinned) show(el);
  });
  canvas.addEventListener('click', function (e) {
    var el = e.target.closest('.op');
    if (pinned) pinned.classList.remove('pinned');
    pinned = el === pinned ? null : el;
    if (pinned) { pinned.classList.add('pinned'); show(pinned); }
  });
  var stuck = document.querySelector('#canvas .op.stuck');
  var find = document.getElementById('find-stuck');
  if (!stuck) {
    find.disabled = true;
  } else {
    find.onclick = function () {
      while (stuck.offsetWidth < 60 && zoom < 65536) setZoom(zoom * 2);
      scroll.scrollLeft = stuck.offsetLeft - scroll.clientWidth / 3;
      view.scrollTop = stuck.offsetTop - view.clientHeight / 3;
      if (pinned) pinned.classList.remove('pinned');
      pinned = stuck;
      stuck.classList.add('pinned');
      show(stuck);
    };
    show(stuck);
  }
  var msg = 'rendered: ' + document.querySelectorAll('#canvas .lane').length + ' lanes, ' +
      document.querySelectorAll('#canvas .op').length + ' operations';
  if (stuck) {
    msg += '; stuck operation ' + stuck.dataset.i +
        (stuck.dataset.line ? ' on line ' + stuck.dataset.line : '') +
        ' drawn in ' + getComputedStyle(stuck).backgroundColor;
  }
  if (st.dataset.state !== 'error') {
    st.dataset.state = 'ok';
    st.textContent = msg;
  }
})();
)js";

const char* verdict_class(Verdict v) {
  switch (v) {
    case Verdict::linearizable:
      return "v-lin";
    case Verdict::not_linearizable:
      return "v-not";
    case Verdict::undecided:
      return "v-und";
    case Verdict::usage_error:
    case Verdict::crashed:
      return "v-err";
  }
  return "v-err";
}

void check_indices(const std::vector<std::size_t>& indices, std::size_t count, const char* field) {
  for (const std::size_t i : indices) {
    if (i >= count) {
      throw std::invalid_argument(fmt::format(
          "HtmlReport::{} names operation {}, but there are only {} operations", field, i, count));
    }
  }
}

void check_report(const HtmlReport& report) {
  const std::size_t n = report.operations.size();
  for (std::size_t i = 0; i < n; ++i) {
    const HtmlOperation& op = report.operations[i];
    if (op.lane >= report.lanes.size()) {
      throw std::invalid_argument(
          fmt::format("HtmlReport operation {} is on lane {}, but there are only {} lanes", i,
                      op.lane, report.lanes.size()));
    }
    if (op.returned_at < op.invoked_at) {
      throw std::invalid_argument(
          fmt::format("HtmlReport operation {} returned at {}, before it was invoked at {}", i,
                      op.returned_at, op.invoked_at));
    }
  }
  check_indices(report.order, n, "order");
  check_indices(report.stuck, n, "stuck");
  check_indices(report.candidates, n, "candidates");
}

// "line 12" for a history timed by its lines, "1500 ns" otherwise.
std::string instant_text(std::int64_t t, const std::string& unit) {
  if (unit == "line") return fmt::format("line {}", t);
  return fmt::format("{} {}", t, unit);
}

std::string counted(std::size_t n, const char* noun) {
  return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s");
}

}  // namespace

std::string html_escape(const std::string& text) { return core::html_escape(text); }

std::string render_html(const HtmlReport& report) {
  check_report(report);
  const std::size_t n = report.operations.size();

  // The time span: from the first invoke to a little past the last instant,
  // so open-ended bars visibly run on past everything that returned.
  std::int64_t first = std::numeric_limits<std::int64_t>::max();
  std::int64_t last = std::numeric_limits<std::int64_t>::min();
  for (const HtmlOperation& op : report.operations) {
    first = std::min(first, op.invoked_at);
    last = std::max(last, op.invoked_at);
    if (op.returned_at != kNever) last = std::max(last, op.returned_at);
  }
  if (n == 0) first = last = 0;
  const double span_core = static_cast<double>(last) - static_cast<double>(first);
  const double span = span_core > 0 ? span_core * 1.04 : 1.0;
  const auto percent = [&](std::int64_t t) {
    return (static_cast<double>(t) - static_cast<double>(first)) / span * 100.0;
  };

  // Per operation: its number in the order (0: none) and its marks.
  std::vector<std::size_t> number(n, 0);
  for (std::size_t k = 0; k < report.order.size(); ++k) number[report.order[k]] = k + 1;
  std::vector<char> stuck(n, 0);
  std::vector<char> candidate(n, 0);
  for (const std::size_t i : report.stuck) stuck[i] = 1;
  for (const std::size_t i : report.candidates) candidate[i] = 1;

  const std::string unit = html_escape(report.time_unit);
  std::vector<std::string> lane_names;
  lane_names.reserve(report.lanes.size());
  for (const std::string& lane : report.lanes) lane_names.push_back(html_escape(lane));

  std::string out;
  out.reserve(4096 + n * 240);
  auto it = std::back_inserter(out);
  const std::string title = html_escape(report.title);
  fmt::format_to(
      it,
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"generator\" content=\"merilo::linearize\">\n"
      "<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n<header>\n"
      "<h1>{}</h1>\n<p class=\"verdict {}\" id=\"summary\">{}</p>\n",
      title, kStyle, title, verdict_class(report.verdict),
      html_escape(report.summary.empty() ? std::string(name(report.verdict)) : report.summary));
  fmt::format_to(it,
                 "<div class=\"tools\"><button id=\"zoom-out\" title=\"zoom out\">&minus;</button>"
                 "<button id=\"zoom-in\" title=\"zoom in (or ctrl + wheel)\">+</button>"
                 "<button id=\"zoom-fit\" title=\"the whole history\">fit</button>"
                 "<span id=\"zoom-level\">1.0&times;</span>"
                 "<button id=\"find-stuck\">find the stuck operation</button>"
                 "<span class=\"legend\"><span><i></i>operation</span>"
                 "<span><i class=\"l-placed\"></i>#n: in the order found</span>"
                 "<span><i class=\"l-open\"></i>never returned</span>"
                 "<span><i class=\"l-stuck\"></i>every order gets stuck here</span>"
                 "<span><i class=\"l-cand\"></i>could not go next</span></span>"
                 "<span>{}, {}; time unit: {}</span></div>\n</header>\n",
                 counted(n, "operation"), counted(report.lanes.size(), "lane"), unit);

  out += "<div id=\"view\"><div id=\"names\">";
  for (const std::string& lane : lane_names) fmt::format_to(it, "<div>{}</div>", lane);
  fmt::format_to(it, "</div>\n<div id=\"scroll\"><div id=\"canvas\" style=\"height:{}px\">\n",
                 report.lanes.size() * kLaneHeight + 2);
  for (std::size_t l = 0; l < report.lanes.size(); ++l) {
    fmt::format_to(it, "<div class=\"lane\" style=\"top:{}px\"></div>\n", l * kLaneHeight);
  }
  for (std::size_t i = 0; i < n; ++i) {
    const HtmlOperation& op = report.operations[i];
    const bool open = op.returned_at == kNever;
    const double left = percent(op.invoked_at);
    const double width = open ? 100.0 - left : percent(op.returned_at) - left;
    std::string classes = "op";
    if (open) classes += " open";
    if (number[i] > 0) classes += " placed";
    if (candidate[i]) classes += " cand";
    if (stuck[i]) classes += " stuck";
    // "read → 1"; an empty result ("ok" said nothing more) shows the call alone.
    const std::string label =
        op.result.empty() ? html_escape(op.call) : html_escape(op.call + " → " + op.result);
    std::string tip = op.line > 0 ? fmt::format("line {} · ", op.line) : std::string();
    tip += fmt::format("{} · {} · invoked at {}, returned: {}", lane_names[op.lane], label,
                       instant_text(op.invoked_at, unit),
                       open ? std::string("never") : instant_text(op.returned_at, unit));
    if (number[i] > 0) tip += fmt::format(" · #{} in the order found", number[i]);
    fmt::format_to(it,
                   "<div class=\"{}\" style=\"left:{:.4f}%;width:{:.4f}%;top:{}px\" data-i=\"{}\"",
                   classes, left, width, op.lane * kLaneHeight + kBarTop, i);
    if (op.line > 0) fmt::format_to(it, " data-line=\"{}\"", op.line);
    if (!op.details.empty()) fmt::format_to(it, " data-d=\"{}\"", html_escape(op.details));
    if (!op.note.empty()) fmt::format_to(it, " data-n=\"{}\"", html_escape(op.note));
    fmt::format_to(it, " title=\"{}\">", tip);
    if (number[i] > 0) fmt::format_to(it, "#{} ", number[i]);
    fmt::format_to(it, "{}</div>\n", label);
  }
  out += "</div></div></div>\n";
  out +=
      "<pre id=\"details\">Hover over or click an operation to see its line and "
      "details.</pre>\n";
  if (!report.explanation.empty()) {
    fmt::format_to(it, "<section><h2>Explanation</h2><pre id=\"explanation\">{}</pre></section>\n",
                   html_escape(report.explanation));
  }
  fmt::format_to(it,
                 "<div id=\"status\" data-state=\"loading\">the script did not run</div>\n"
                 "<script>{}</script>\n</body>\n</html>\n",
                 kScript);
  return out;
}

std::string write_html(const HtmlReport& report, const std::string& path) noexcept {
  try {
    return core::write_file(path, render_html(report));
  } catch (const std::exception& e) {
    return e.what();
  }
}

}  // namespace merilo::linearize
