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
  const FailureInfo& core = *t.core;
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
/// invocation, or, for a controlled race, in the race's logical instants
/// with the switches between branches as rows of their own.
std::string timeline(const std::vector<std::vector<CallText>>& histories,
                     const ScheduleStats& scheduling) {
  const bool logical = is_controlled(scheduling.scheduler);
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
      std::string text;
      if (logical) {
        text = fmt::format("[{:>3} .. {:>3}] {} -> {}", c.invoked_at, c.returned_at,
                           core::printable(c.command), core::printable(c.response));
      } else {
        const double start = static_cast<double>(c.invoked_at - origin) / 1000.0;
        const double end = static_cast<double>(c.returned_at - origin) / 1000.0;
        text = fmt::format("[{:>9.1f} .. {:>9.1f}] {} -> {}", start, end,
                           core::printable(c.command), core::printable(c.response));
      }
      width[b] = std::max(width[b], text.size());
      cells.push_back({b, c.invoked_at, std::move(text)});
    }
  }
  if (logical) {
    for (const Switch& sw : scheduling.switches) {
      if (sw.from >= histories.size() || sw.to >= histories.size()) continue;
      std::string text = fmt::format("({:>3}) -> branch {}{}, before {}", sw.at, sw.to,
                                     sw.preemption ? " (preempted)" : "", sw.before);
      width[sw.from] = std::max(width[sw.from], text.size());
      cells.push_back({sw.from, sw.at, std::move(text)});
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
  std::string out = logical ? "race (logical instants of the controlled schedule; one column per "
                              "branch; (t) -> branch k: the switches):\n"
                            : "race (microseconds from the first call; one column per branch):\n";
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
  const FailureInfo& core = *t.core;
  std::string out;
  switch (core.evidence) {
    case Evidence::in_prefix:
      out += fmt::format("evidence: in the prefix, at step {} (nothing raced)\n", core.prefix_step);
      out += prefix_text(t);
      break;
    case Evidence::raced:
      out += "evidence: the race\n";
      out += prefix_text(t);
      out += timeline(t.histories, core.scheduling);
      if (!core.explanation.empty()) out += "checker:\n" + indented(core.explanation);
      break;
    case Evidence::after_race:
      out += "evidence: finish failed after a race the checker found linearizable\n";
      out += prefix_text(t);
      out += timeline(t.histories, core.scheduling);
      break;
    case Evidence::unrecorded:
      out += "evidence: unrecorded (no histories to judge)\n";
      out += prefix_text(t);
      if (is_controlled(core.scheduling.scheduler) && !t.histories.empty()) {
        out += "the calls that returned, and the schedule up to the end:\n";
        out += timeline(t.histories, core.scheduling);
      }
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
  if (core.abandoned_threads > 0) {
    out += fmt::format(
        "threads abandoned by this check: {} (each keeps its system alive; "
        "shrinking stops at {})\n",
        core.abandoned_threads, kMaxAbandonedThreads);
  }
  if (core.system_left_alive) {
    out +=
        "NOTE: a branch never returned, so its thread was abandoned and its system left alive "
        "(no teardown, no destructor) rather than torn down under the running thread\n";
  }
  return out;
}

}  // namespace

/// How the shrunk case was scheduled, and the schedule that fails.
std::string scheduling_text(const FailureInfo& core) {
  const ScheduleStats& s = core.scheduling;
  if (!is_controlled(s.scheduler)) {
    return fmt::format(
        "scheduling: free threads ({}; the system reached no merilo::sync operation, or the "
        "config chose it); the interleaving is the operating system's. The original case "
        "first failed at execution {}, {:.1f} ms into the check\n",
        name(s.scheduler), core.executions_to_failure,
        static_cast<double>(core.ns_to_failure) / 1e6);
  }
  std::string out;
  if (s.scheduler == Scheduler::preemption_bounded) {
    std::string rounds;
    for (std::size_t k = 0; k < s.per_round.size(); ++k) {
      rounds += fmt::format("{}{} with <= {}", k == 0 ? "" : ", ", s.per_round[k], k);
    }
    out += fmt::format(
        "scheduling: controlled, by preemption bound; {} schedule(s) of the shrunk "
        "case run ({})",
        s.schedules, rounds);
    if (s.rounds_done > 0) {
      out += fmt::format("; every schedule with <= {} preemption(s) passed", s.rounds_done - 1);
    }
    out += '\n';
  } else {
    out += fmt::format("scheduling: controlled, {}; failed at schedule {} of the shrunk case\n",
                       name(s.scheduler), s.schedules);
  }
  std::string choices;
  for (std::uint8_t c : s.schedule) choices += fmt::format("{}{}", choices.empty() ? "" : " ", c);
  out += fmt::format(
      "schedule: {} ({} preemption{}; the branch chosen at each decision, then the "
      "running branch goes on)\n",
      choices.empty() ? "(the defaults)" : "[" + choices + "]", s.preemptions,
      s.preemptions == 1 ? "" : "s");
  return out;
}

std::string format_report(const FailureText& t) {
  const FailureInfo& core = *t.core;
  std::string out =
      fmt::format("merilo::parallel: run {} of seed {} failed: {}\n  {}\n\n", core.run, core.seed,
                  core::printable(core.violation.tag), core::printable(core.violation.detail));
  if (core.original_violation.detail != core.violation.detail) {
    out += fmt::format("the original case failed with: {}\n\n",
                       core::printable(core.original_violation.detail));
  }
  out += "original case:\n" + case_text(t.original_prefix, t.original_branches);
  out += fmt::format("shrunk case ({} shrinks accepted, {}; {} executions of this run):\n",
                     core.shrinks, name(core.end), core.executions);
  out += case_text(t.shrunk_prefix, t.shrunk_branches);
  out += scheduling_text(core);
  out += '\n' + evidence_text(t);
  const std::string config =
      fmt::format("{{.seed = {}, .branches = {}, .max_prefix = {}, .max_branch = {}}}", core.seed,
                  core.branches, core.max_prefix, core.max_branch);
  if (is_controlled(core.scheduling.scheduler)) {
    out += fmt::format(
        "\nreplay exactly (the shrunk case under its schedule, deterministically):\n"
        "  merilo::parallel::replay(spec, \"{}\");\n",
        pin_token(core));
  } else {
    out += fmt::format(
        "\nreplay the shrunk case (free threads: up to shrink_retries executions, not exact):\n"
        "  merilo::parallel::replay(spec, \"{}\");\n",
        pin_token(core));
  }
  out += fmt::format(
      "\nreproduce (the case is fixed by the seed and run{}):\n"
      "  merilo::parallel::check_run(spec, {}, {});\n"
      "  merilo::parallel::generate_case(spec, {}, {});  // the original case\n",
      !is_controlled(core.scheduling.scheduler) ? "; the interleaving is not" : "", config,
      core.run, config, core.run);
  return out;
}

}  // namespace merilo::parallel::detail
