// report.cpp — the explorer's own text: violation kinds and lines, the
// summary line, progress on a terminal, and the tuple graph as DOT.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include <merilo/explore/explore.hpp>
#include <merilo/explore/violation.hpp>

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

std::string ExploreResult::summary() const {
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

namespace detail {

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

void Log::summary(const ExploreResult& result) {
  if (out_ == nullptr) return;
  if (dirty_) fmt::print(out_, "\r\x1b[K");
  fmt::print(out_, "{}\n", result.summary());
  std::fflush(out_);
}

}  // namespace detail
}  // namespace merilo::explore
