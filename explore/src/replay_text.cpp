// replay_text.cpp — the text of traces and replays: trace initializers,
// replay outcomes, the aligned trace table and paste-ready replay tests.
#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <merilo/explore/replay.hpp>
#include <merilo/explore/trace.hpp>

namespace merilo::explore {

std::string Replayed::summary() const {
  if (!error.empty()) return error;
  if (violation.found()) return violation.summary();
  return fmt::format("ok: {} steps, no rule broken", steps);
}

std::string to_string(const Trace& trace) { return fmt::format("{{{}}}", fmt::join(trace, ", ")); }

std::string replay_test(const std::string& suite, const std::string& name,
                        const std::string& system_expr, const Trace& trace) {
  return fmt::format(
      "TEST({}, {}) {{\n"
      "  auto sys = {};\n"
      "  merilo::testing::expect_replay_ok(sys, merilo::explore::Trace{});\n"
      "}}\n",
      suite, name, system_expr, to_string(trace));
}

std::string replay_test_name(std::string_view prefix, ViolationKind kind) {
  std::string out(prefix);
  out += '_';
  for (char c : name(kind)) out += c == ' ' ? '_' : c;
  return out;
}

namespace detail {

namespace {
// What a trace that no longer fits means, for the person whose pinned test
// just failed with it.
constexpr const char* kDoesNotFitHelp =
    "What this means: the system changed so that this trace can no longer be followed, so it\n"
    "cannot say whether the bug it pinned is still there. If the change was the intended fix\n"
    "(say, the step is now disabled), delete or update this pinned test: search again\n"
    "(merilo::testing::explore or make explore) and pin the trace it reports, or pin a trace\n"
    "that shows the fixed behaviour. If the change was not meant to disable the step, the\n"
    "system has a new bug: look at the step named above.\n";
}  // namespace

std::string does_not_fit(std::size_t step, Kind k, std::size_t kinds,
                         const std::string& description) {
  if (k >= kinds) {
    return fmt::format("the trace does not fit: step {} takes kind {} but the system has {} kinds",
                       step, k, kinds);
  }
  return fmt::format(
      "the trace does not fit: step {} takes kind {} ({}), which is not enabled there", step, k,
      description);
}

std::string format_rows(const std::vector<Row>& rows, const Replayed& replayed) {
  const std::size_t num_width = fmt::formatted_size("{}", rows.size());
  std::size_t desc_width = 0;
  std::size_t tuple_width = 0;
  for (const Row& r : rows) {
    desc_width = std::max(desc_width, r.description.size());
    tuple_width = std::max(tuple_width, r.tuple.size());
  }
  std::string out;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out += fmt::format("#{:0{}} {:<{}} | ", i + 1, num_width, rows[i].description, desc_width);
    if (rows[i].show.empty()) {
      out += fmt::format("{}\n", rows[i].tuple);
    } else {
      out += fmt::format("{:<{}} | {}\n", rows[i].tuple, tuple_width, rows[i].show);
    }
  }
  if (!replayed.error.empty()) {
    out += fmt::format("TRACE DOES NOT FIT: {}\n", replayed.error);
    out += kDoesNotFitHelp;
  } else if (replayed.violation.found()) {
    out += fmt::format("VIOLATION {}\n", replayed.violation.summary());
  } else {
    out += fmt::format("OK: {} steps, no rule broken\n", replayed.steps);
  }
  return out;
}

}  // namespace detail
}  // namespace merilo::explore
