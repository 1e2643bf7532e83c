// merilo/explore/html.hpp — a trace as one self-contained HTML page.
//
// A long counterexample is hard to read in a terminal: which of twelve
// machines moved at step 17, and what in the world's data changed with it?
// `trace_html(sys, trace)` replays a trace (as `format` in replay.hpp does)
// and draws it as a single HTML document that opens in any browser, with no
// network, no external scripts, fonts or images:
//
//   * a row per step, from the world after `reset()` (row 0) to the last
//     step: the step number, the kind taken (its number and `describe`),
//     every machine's state (`tuple`) and, when the system `Shows`
//     (system.hpp), the world's data (`show`);
//   * in each row, what changed since the row before it marked (the words
//     of the tuple and of `show` that are new), so the eye goes straight to
//     the machine that moved;
//   * the step that broke a rule marked, and the rule it broke at the end
//     (or that the trace no longer fits, or that it broke nothing);
//   * a pinned test to copy into a test file, when the caller gives one
//     (`TraceHtmlOptions::pinned_test`).
//
// `write_trace_html(sys, trace, path)` writes the page to a file. The gtest,
// Catch2 and doctest glue and fuzz targets write one for every
// counterexample they report when the environment variable
// `MERILO_TRACE_HTML` names a directory (framework.hpp, fuzz/target.hpp).
//
// Example:
//
//   merilo::explore::ExploreResult r = merilo::explore::explore(sys, options);
//   if (r.violation.found()) {
//     std::string error = merilo::explore::write_trace_html(
//         sys, r.violation.trace, "trace.html", {.title = "Turnstile: free pass"});
//   }
//
// NOTE: every string from the system (descriptions, tuples, `show`) and
// from the options is escaped (core/html.hpp): a world showing `<script>`
// shows it as text. The page's own script is the only one it runs; it
// writes "rendered: N steps, ..." (or the first script error) into the
// element `#status`, so a headless browser can tell that the page came up
// whole.
#ifndef MERILO_EXPLORE_HTML_HPP
#define MERILO_EXPLORE_HTML_HPP

#include <exception>  // std::exception
#include <string>     // the page
#include <vector>     // rows

#include <merilo/core/file.hpp>       // write_file
#include <merilo/explore/replay.hpp>  // replay_rows, Row, Replayed
#include <merilo/explore/system.hpp>  // System
#include <merilo/explore/trace.hpp>   // Trace

namespace merilo::explore {

/// What the trace page says besides the trace itself.
struct TraceHtmlOptions {
  /// The page's title and heading; "" gives "merilo trace".
  std::string title{};
  /// One line under the heading: what found the trace ("explore: 38
  /// states", "fuzz target Mutex, input of 12 bytes").
  std::string context{};
  /// A paste-ready test that pins the trace (`replay_test`,
  /// `pinned_test`); "" leaves that section out.
  std::string pinned_test{};
};

/// Replays `trace` on `sys` and returns the page described in the header
/// overview. Never throws but `std::bad_alloc`.
template <System S>
[[nodiscard]] std::string trace_html(S& sys, const Trace& trace,
                                     const TraceHtmlOptions& options = {});

/// Writes `trace_html(sys, trace, options)` to the file `path` with
/// `core::write_file`: a FIFO, device or folder at `path` is refused, a
/// symbolic link there is replaced (what it named is untouched), and the
/// page is renamed into place once written. Returns "" when the page was
/// written, else the reason it was not. Never throws.
template <System S>
[[nodiscard]] std::string write_trace_html(S& sys, const Trace& trace, const std::string& path,
                                           const TraceHtmlOptions& options = {}) noexcept;

namespace detail {

/// Everything the page shows, gathered by the template, drawn in src/.
struct TracePage {
  const Trace& trace;               ///< The kinds taken, one per row after row 0.
  const Row& initial;               ///< The world after reset (no description).
  const std::vector<Row>& rows;     ///< One per step taken.
  const Replayed& replayed;         ///< How the replay ended.
  const TraceHtmlOptions& options;  ///< Title, context, pinned test.
};

/// The HTML text of `page`.
[[nodiscard]] std::string render_trace_page(const TracePage& page);

}  // namespace detail

template <System S>
std::string trace_html(S& sys, const Trace& trace, const TraceHtmlOptions& options) {
  std::vector<detail::Row> rows;
  detail::Row initial;
  const Replayed replayed = detail::replay_rows(sys, trace, rows, &initial);
  return detail::render_trace_page({trace, initial, rows, replayed, options});
}

template <System S>
std::string write_trace_html(S& sys, const Trace& trace, const std::string& path,
                             const TraceHtmlOptions& options) noexcept {
  try {
    return core::write_file(path, trace_html(sys, trace, options));
  } catch (const std::exception& e) {
    return "cannot write " + path + ": " + e.what();
  }
}

}  // namespace merilo::explore

#endif  // MERILO_EXPLORE_HTML_HPP
