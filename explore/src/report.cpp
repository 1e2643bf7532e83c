// report.cpp — the explorer's own text: violation kinds and lines, the
// summary line, progress lines, and the tuple graph as DOT.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

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

std::string Violation::summary() const {
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
  if (symmetry) line += " symmetry=canonical";
  if (!sometimes.empty()) {
    std::string reached;
    for (const SometimesReport& p : sometimes) {
      reached += fmt::format("{}{}: {}", reached.empty() ? "" : ", ", p.name,
                             p.reached  ? fmt::format("depth {}", p.depth)
                             : complete ? std::string("never")
                                        : std::string("not reached within the bound"));
    }
    line += fmt::format(" sometimes=[{}]", reached);
  }
  if (compact_bits != 0) {
    line += fmt::format(" compaction={}bit slots={} miss<={:.3g}{}", compact_bits, compact_slots,
                        miss_probability, compact_full ? " table=full" : "");
  }
  if (violation.found()) line += fmt::format(" violation={}", explore::name(violation.kind));
  if (const std::vector<std::string> missed = unreached(); !missed.empty()) {
    line += fmt::format(" unreached=[{}]", fmt::join(missed, ", "));
  }
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

namespace {
// "1.9 GB", "27.3 MB", "512 kB", "912 B".
std::string bytes_text(std::size_t bytes) {
  const auto b = static_cast<double>(bytes);
  if (b >= 1e9) return fmt::format("{:.1f} GB", b / 1e9);
  if (b >= 1e6) return fmt::format("{:.1f} MB", b / 1e6);
  if (b >= 1e3) return fmt::format("{:.0f} kB", b / 1e3);
  return fmt::format("{} B", bytes);
}
}  // namespace

Log::Log(std::FILE* out)
    : out_(out),
      terminal_(out != nullptr && isatty(fileno(out)) != 0),
      start_(std::chrono::steady_clock::now()),
      next_(start_ + std::chrono::seconds(1)) {}

void Log::progress(const Progress& p) {
  if (out_ == nullptr) return;
  const auto now = std::chrono::steady_clock::now();
  if (now < next_) return;
  next_ = now + std::chrono::seconds(1);
  const double secs = std::chrono::duration<double>(now - start_).count();
  const std::string line = fmt::format(
      "merilo: {:.0f}s states={} depth={} frontier={}/{} states/s={:.0f} memory={}", secs, p.states,
      p.depth, p.expanded, p.frontier, static_cast<double>(p.states) / secs, bytes_text(p.memory));
  if (terminal_) {
    fmt::print(out_, "\r{}\x1b[K", line);
    dirty_ = true;
  } else {
    fmt::print(out_, "{}\n", line);
  }
  std::fflush(out_);
}

void Log::summary(const ExploreResult& result) {
  if (out_ == nullptr) return;
  if (dirty_) fmt::print(out_, "\r\x1b[K");
  std::string line = result.summary();
  if (result.error.empty() && result.states > 0) {
    line +=
        fmt::format(" ({:.2f}s, {:.0f} states/s, {:.1f} B/state)", result.seconds,
                    static_cast<double>(result.states) / std::max(result.seconds, 1e-9),
                    static_cast<double>(result.memory_bytes) / static_cast<double>(result.states));
    if (result.spilled_bytes != 0) {
      line.insert(line.size() - 1, fmt::format(", {} on disk", bytes_text(result.spilled_bytes)));
    }
  }
  fmt::print(out_, "{}\n", line);
  std::fflush(out_);
}

}  // namespace detail
}  // namespace merilo::explore
