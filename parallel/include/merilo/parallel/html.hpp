// merilo/parallel/html.hpp — a parallel failure's race as an HTML page.
//
// `write_html(failure, path)` writes the race of a `Failure` — one lane per
// branch, each call a bar from its invoke to its return with its command
// and response — as merilo::linearize's self-contained HTML page (see
// merilo/linearize/html.hpp: no network, zoom and scroll, details on hover
// or click). For a race the checker found not linearizable, the calls it
// could place are numbered in that order and each branch's next call, none
// of which could go next, is marked in red with its reason. Under the
// picture stands the whole text of `report(failure)`: the violation, the
// cases, the checker's explanation and the lines that reproduce the run.
//
// Example (the test ParallelHtml.ANotLinearizableRaceIsDrawn does the same on a real
// failure):
//
// clang-format off
//   auto r = merilo::parallel::check(CounterSpec{}, {.seed = 7});
//   if (r.failure) {
//     const std::string problem = merilo::parallel::write_html(*r.failure, "race.html");
//     if (!problem.empty()) std::fprintf(stderr, "%s\n", problem.c_str());
//   }
// clang-format on
//
// NOTE: only `Evidence::raced` and `Evidence::after_race` failures have a
// race to draw; for the others (a prefix call that broke a rule, a crash,
// a timeout, no race) the page has no bars and holds the report text alone.
// Instants are the race's steady_clock nanoseconds, counted from its first
// invoke.
#ifndef MERILO_PARALLEL_HTML_HPP
#define MERILO_PARALLEL_HTML_HPP

#include <exception>  // std::exception
#include <string>     // path, errors

#include <merilo/linearize/html.hpp>    // HtmlReport, write_html
#include <merilo/parallel/failure.hpp>  // Failure, report's text

namespace merilo::parallel {

namespace detail {
/// The page's content for a failure already in words; built once, in
/// src/html.cpp. Throws std::invalid_argument when `placed` or `stuck`
/// names a call the histories do not have.
[[nodiscard]] linearize::HtmlReport failure_html(const FailureText& text);

}  // namespace detail

/// The page `write_html` writes, for a caller that wants to add to it or
/// render it itself (`linearize::render_html`).
template <class Cmd, class Resp>
[[nodiscard]] linearize::HtmlReport html_report(const Failure<Cmd, Resp>& failure) {
  return detail::failure_html(detail::failure_text(failure));
}

/// Writes `failure`'s race as an HTML page to `path` (see the top of this
/// file). Returns "" when written, otherwise what went wrong ("cannot write
/// x.html: Permission denied"). Never throws.
template <class Cmd, class Resp>
[[nodiscard]] std::string write_html(const Failure<Cmd, Resp>& failure,
                                     const std::string& path) noexcept {
  try {
    return linearize::write_html(html_report(failure), path);
  } catch (const std::exception& e) {
    return e.what();
  }
}

}  // namespace merilo::parallel

#endif  // MERILO_PARALLEL_HTML_HPP
