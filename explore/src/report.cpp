// report.cpp — the text merilo prints: summary lines, violations, trace
// tables, paste-ready replay tests and totality reports.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>

#include <fmt/format.h>

#include <merilo/explore/explore.hpp>
#include <merilo/explore/total.hpp>
#include <merilo/explore/trace.hpp>

namespace merilo::explore {

std::string_view name(ViolationKind kind) noexcept {
  switch (kind) {
    case ViolationKind::none:
      return "none";
    case ViolationKind::invariant:
      return "invariant";
    case ViolationKind::deadlock:
      return "deadlock";
    case ViolationKind::apply_error:
      return "apply error";
    case ViolationKind::mode_change:
      return "mode change";
    case ViolationKind::nondeterminism:
      return "nondeterminism";
    case ViolationKind::crash:
      return "crash";
  }
  return "out-of-range violation kind";
}

std::string Violation::describe() const {
  if (!found()) return "no violation";
  std::string where =
      trace.empty() ? std::string("in the initial world") : fmt::format("at step {}", trace.size());
  std::string what = kind == ViolationKind::invariant ? fmt::format("invariant \"{}\"", invariant)
                                                      : std::string(name(kind));
  if (detail.empty()) return fmt::format("{} {}", what, where);
  return fmt::format("{} {}: {}", what, where, detail);
}

std::string Result::summary() const {
  if (!error.empty()) return error;
  std::string names;
  for (const auto& n : invariants) names += (names.empty() ? "" : ", ") + n;
  std::string line =
      fmt::format("merilo: {}{}complete={} states={} depth={} invariants={} [{}]", name,
                  name.empty() ? "" : ": ", complete, states, depth, invariants.size(), names);
  if (violation.found()) line += fmt::format(" violation={}", explore::name(violation.kind));
  return line;
}

namespace {
// A DOT double-quoted string.
std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out + '"';
}
}  // namespace

std::string TupleGraph::to_dot(std::string_view name) const {
  std::string out =
      fmt::format("digraph {} {{\n  rankdir=LR;\n  node [shape=box];\n", quoted(name));
  for (const auto& n : nodes) out += fmt::format("  {};\n", quoted(n));
  for (const auto& e : edges) {
    out += fmt::format("  {} -> {} [label={}];\n", quoted(e.from), quoted(e.to), quoted(e.label));
  }
  return out + "}\n";
}

std::string Replayed::describe() const {
  if (!error.empty()) return error;
  if (violation.found()) return violation.describe();
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

std::string TotalResult::report() const {
  if (ok()) return fmt::format("total: {} pairs, all handled", pairs);
  return fmt::format("total: {} of {} pairs broke a rule:\n  {}", problems.size(), pairs,
                     fmt::join(problems, "\n  "));
}

namespace detail {

std::string check_options(const Options& options, bool restorable, bool copyable) {
  if (options.max_states == 0) {
    return "merilo: Options::max_states is required (the most worlds the search may store); "
           "it has no default";
  }
  if (options.max_states > std::size_t{0xFFFFFFFE}) {
    return fmt::format("merilo: Options::max_states is {}, above the limit of {} worlds",
                       options.max_states, std::size_t{0xFFFFFFFE});
  }
  if (options.mode == Mode::restore && !restorable) {
    return "merilo: Options::mode is Mode::restore but the system has no restore(world) "
           "(see merilo::explore::Restorable)";
  }
  if (options.threads == 0) return "merilo: Options::threads must be at least 1";
  if (options.threads > 1 && !copyable) {
    return fmt::format(
        "merilo: Options::threads is {} but the system is not copy-constructible; "
        "each worker thread needs its own copy",
        options.threads);
  }
  return {};
}

Log::Log(std::FILE* out)
    : out_(out),
      terminal_(out != nullptr && isatty(fileno(out)) != 0),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

void Log::progress(std::size_t states, std::size_t depth) {
  if (!terminal_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::seconds(1)) return;
  last_ = now;
  const double secs = std::chrono::duration<double>(now - start_).count();
  fmt::print(out_, "\rmerilo: states={} depth={} states/s={:.0f}   ", states, depth,
             static_cast<double>(states) / secs);
  std::fflush(out_);
  dirty_ = true;
}

void Log::summary(const Result& result) {
  if (out_ == nullptr) return;
  if (dirty_) fmt::print(out_, "\r\x1b[K");
  fmt::print(out_, "{}\n", result.summary());
  std::fflush(out_);
}

std::string format_rows(const std::vector<Row>& rows, const Replayed& replayed) {
  const std::size_t num_width = fmt::formatted_size("{}", rows.size());
  std::size_t desc_width = 0;
  for (const Row& r : rows) desc_width = std::max(desc_width, r.description.size());
  std::string out;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out += fmt::format("#{:0{}} {:<{}} | {}\n", i + 1, num_width, rows[i].description, desc_width,
                       rows[i].tuple);
  }
  if (!replayed.error.empty()) {
    out += fmt::format("TRACE DOES NOT FIT: {}\n", replayed.error);
  } else if (replayed.violation.found()) {
    out += fmt::format("VIOLATION {}\n", replayed.violation.describe());
  } else {
    out += fmt::format("OK: {} steps, no rule broken\n", replayed.steps);
  }
  return out;
}

std::string total_problem(std::size_t m, std::size_t e, TotalCell cell) {
  using fsm::Outcome;
  if (m == 0 || e == 0) {
    const char* zero = m == 0 ? "the zero machine" : "the zero event";
    if (cell.outcome != Outcome::invalid) {
      return fmt::format("{} must be refused as invalid, got {}", zero, fsm::name(cell.outcome));
    }
    if (!cell.unchanged) return fmt::format("{} was refused but changed the machine", zero);
    return {};
  }
  switch (cell.outcome) {
    case Outcome::moved:
      return {};
    case Outcome::ignored:
    case Outcome::rejected:
      if (!cell.unchanged) {
        return fmt::format("{} but changed the machine or returned actions",
                           fsm::name(cell.outcome));
      }
      return {};
    case Outcome::invalid:
      return "a real state and event must not be invalid";
    case Outcome::none:
      return "returned the unset outcome none";
  }
  return fmt::format("returned an out-of-range outcome {}", static_cast<unsigned>(cell.outcome));
}

}  // namespace detail
}  // namespace merilo::explore
