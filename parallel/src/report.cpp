// report.cpp — the text of a parallel failure: the cases, the evidence (a
// timeline of the race), shrink statistics and how to reproduce it.
#include <algorithm>  // std::sort, std::max, std::min
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/core.h>

#include <merilo/core/text.hpp>  // every user text printed goes through printable
#include <merilo/parallel/failure.hpp>

namespace merilo::parallel::detail {

namespace {

std::string joined(const std::vector<std::string>& items) {
  if (items.empty()) return "(empty)";
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + core::printable(s);
  return out;
}

std::string case_text(const std::vector<std::string>& prefix,
                      const std::vector<std::vector<std::string>>& branches) {
  std::string out = fmt::format("    prefix:   {}\n", joined(prefix));
  for (std::size_t b = 0; b < branches.size(); ++b) {
    out += fmt::format("    branch {}: {}\n", b, joined(branches[b]));
  }
  return out;
}

std::string prefix_text(const FailureText& t) {
  const FailureCore& core = *t.core;
  if (t.shrunk_prefix.empty()) return {};
  std::string out = "prefix, call by call:\n";
  for (std::size_t k = 0; k < t.shrunk_prefix.size(); ++k) {
    if (k < t.prefix_responses.size()) {
      out += fmt::format("  {:>3}. {} -> {}", k, core::printable(t.shrunk_prefix[k]),
                         core::printable(t.prefix_responses[k]));
    } else if (k == core.prefix_step && core.evidence == Evidence::in_prefix) {
      out += fmt::format("  {:>3}. {} -> (no response)", k, core::printable(t.shrunk_prefix[k]));
    } else {
      out += fmt::format("  {:>3}. {} (not run)", k, core::printable(t.shrunk_prefix[k]));
    }
    if (core.evidence == Evidence::in_prefix && k == core.prefix_step) out += "   <-- failed here";
    out += '\n';
  }
  return out;
}

/// The branches as columns, one row per call in order of invocation, each
/// cell "[start .. end] command -> response" in microseconds from the first
/// invocation.
std::string timeline(const std::vector<std::vector<CallText>>& histories) {
  struct Cell {
    std::size_t branch;
    std::int64_t invoked;
    std::string text;
  };
  std::vector<Cell> cells;
  std::int64_t origin = INT64_MAX;
  for (const auto& h : histories) {
    for (const CallText& c : h) origin = std::min(origin, c.invoked_at);
  }
  std::vector<std::size_t> width(histories.size());
  for (std::size_t b = 0; b < histories.size(); ++b) {
    width[b] = fmt::format("branch {}", b).size();
    for (const CallText& c : histories[b]) {
      const double start = static_cast<double>(c.invoked_at - origin) / 1000.0;
      const double end = static_cast<double>(c.returned_at - origin) / 1000.0;
      std::string text = fmt::format("[{:>9.1f} .. {:>9.1f}] {} -> {}", start, end,
                                     core::printable(c.command), core::printable(c.response));
      width[b] = std::max(width[b], text.size());
      cells.push_back({b, c.invoked_at, std::move(text)});
    }
  }
  std::stable_sort(cells.begin(), cells.end(),
                   [](const Cell& a, const Cell& b) { return a.invoked < b.invoked; });
  const auto row = [&](std::size_t branch, const std::string& text) {
    std::string line = "  ";
    for (std::size_t b = 0; b < histories.size(); ++b) {
      if (b > 0) line += " | ";
      line += fmt::format("{:<{}}", b == branch ? text : std::string(), width[b]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    return line + '\n';
  };
  std::string out = "race (microseconds from the first call; one column per branch):\n";
  {
    std::string head = "  ";
    for (std::size_t b = 0; b < histories.size(); ++b) {
      if (b > 0) head += " | ";
      head += fmt::format("{:<{}}", fmt::format("branch {}", b), width[b]);
    }
    while (!head.empty() && head.back() == ' ') head.pop_back();
    out += head + '\n';
  }
  for (const Cell& c : cells) out += row(c.branch, c.text);
  return out;
}

std::string indented(const std::string& text) {
  std::string out = "  ";
  for (std::size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    if (text[i] == '\n' && i + 1 < text.size()) out += "  ";
  }
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out;
}

std::string evidence_text(const FailureText& t) {
  const FailureCore& core = *t.core;
  std::string out;
  switch (core.evidence) {
    case Evidence::in_prefix:
      out += fmt::format("evidence: in the prefix, at step {} (nothing raced)\n", core.prefix_step);
      out += prefix_text(t);
      break;
    case Evidence::raced:
      out += "evidence: the race\n";
      out += prefix_text(t);
      out += timeline(t.histories);
      if (!core.explanation.empty()) out += "checker:\n" + indented(core.explanation);
      break;
    case Evidence::after_race:
      out += "evidence: finish failed after a race the checker found linearizable\n";
      out += prefix_text(t);
      out += timeline(t.histories);
      break;
    case Evidence::unrecorded:
      out += "evidence: unrecorded (no histories to judge)\n";
      out += prefix_text(t);
      break;
    case Evidence::no_race:
      out += "evidence: no race (the case was never executed)\n";
      break;
  }
  if (!core.unfinished.empty()) {
    std::string which;
    for (std::size_t b : core.unfinished) which += (which.empty() ? "" : ", ") + std::to_string(b);
    out += fmt::format("still running at the deadline: branch {}\n", which);
  }
  if (core.system_left_alive) {
    out +=
        "NOTE: a branch never returned, so its thread was abandoned and its system left alive "
        "(no teardown, no destructor) rather than torn down under the running thread\n";
  }
  return out;
}

}  // namespace

std::string format_report(const FailureText& t) {
  const FailureCore& core = *t.core;
  std::string out =
      fmt::format("merilo::parallel: run {} of seed {} failed: {}\n  {}\n\n", core.run, core.seed,
                  core::printable(core.violation.tag), core::printable(core.violation.detail));
  if (core.original_violation.detail != core.violation.detail) {
    out += fmt::format("the original case failed with: {}\n\n",
                       core::printable(core.original_violation.detail));
  }
  out += "original case:\n" + case_text(t.original_prefix, t.original_branches);
  out += fmt::format("shrunk case ({} shrinks accepted, {}; {} executions of this run):\n",
                     core.shrinks, statem::name(core.end), core.executions);
  out += case_text(t.shrunk_prefix, t.shrunk_branches);
  out += '\n' + evidence_text(t);
  const std::string config =
      fmt::format("{{.seed = {}, .branches = {}, .max_prefix = {}, .max_branch = {}}}", core.seed,
                  core.branches, core.max_prefix, core.max_branch);
  out += fmt::format(
      "\nreproduce (the case is fixed by the seed and run; the interleaving is not):\n"
      "  merilo::parallel::check_run(spec, {}, {});\n"
      "  merilo::parallel::generate_case(spec, {}, {});  // the original case\n",
      config, core.run, config, core.run);
  return out;
}

}  // namespace merilo::parallel::detail
