// html.cpp — a parallel failure, in words, as linearize's HtmlReport: a lane
// per branch, the checker's placed calls numbered, its stuck calls marked.
#include <merilo/parallel/html.hpp>

#include <fmt/core.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace merilo::parallel::detail {

linearize::HtmlReport failure_html(const FailureText& text) {
  const FailureInfo& core = *text.core;
  linearize::HtmlReport page;
  page.title = fmt::format("merilo::parallel: run {} of seed {} failed: {}", core.run, core.seed,
                           core.violation.tag);
  // The summary's colour: red for a race no order explains, amber for one
  // left undecided, grey for every other failure.
  if (core.violation.tag == kNotLinearizableTag) {
    page.verdict = linearize::Verdict::not_linearizable;
  } else if (core.violation.tag == kUndecidedTag) {
    page.verdict = linearize::Verdict::undecided;
  } else {
    page.verdict = linearize::Verdict::crashed;
  }
  page.summary = core.violation.tag + ": " + core.violation.detail;
  page.explanation = format_report(text);
  page.time_unit = "ns";

  // Instants from the race's first invoke, so they read as durations.
  std::int64_t origin = 0;
  bool any = false;
  for (const auto& h : text.histories) {
    for (const CallText& c : h) {
      origin = any ? std::min(origin, c.invoked_at) : c.invoked_at;
      any = true;
    }
  }
  // Branch-major numbering: operation `first[b] + i` is branch b's call i.
  std::vector<std::size_t> first;
  for (std::size_t b = 0; b < text.histories.size(); ++b) {
    page.lanes.push_back(fmt::format("branch {}", b));
    first.push_back(page.operations.size());
    for (std::size_t i = 0; i < text.histories[b].size(); ++i) {
      const CallText& c = text.histories[b][i];
      linearize::HtmlOperation op;
      op.lane = b;
      op.call = c.command;
      op.result = c.response;
      op.invoked_at = c.invoked_at - origin;
      op.returned_at = c.returned_at - origin;
      op.details = fmt::format("branch {}, call {}", b, i);
      page.operations.push_back(std::move(op));
    }
  }
  const auto index = [&](linearize::CallRef c, const char* field) {
    if (c.history >= text.histories.size() || c.index >= text.histories[c.history].size()) {
      throw std::invalid_argument(
          fmt::format("Failure::{} names branch {} call {}, which the histories do not have", field,
                      c.history, c.index));
    }
    return first[c.history] + c.index;
  };
  for (const linearize::CallRef& c : core.placed) page.order.push_back(index(c, "placed"));
  for (const StuckCall& s : core.stuck) {
    const std::size_t i = index(s.call, "stuck");
    page.stuck.push_back(i);
    page.operations[i].note = "could not go next: " + s.reason;
  }
  return page;
}

}  // namespace merilo::parallel::detail
