// checker.hpp — merilo-lincheck's check of one history against one model
// adapter (model_adapters.hpp) and everything it prints: the summary line,
// --explain's account of a failure, and the --html report's contents.
#ifndef MERILO_TOOLS_LINCHECK_CHECKER_HPP
#define MERILO_TOOLS_LINCHECK_CHECKER_HPP

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <merilo/core/describe.hpp>
#include <merilo/core/text.hpp>
#include <merilo/linearize/history.hpp>
#include <merilo/linearize/html.hpp>

#include "history_file.hpp"
#include "lincheck.hpp"
#include "report_file.hpp"

namespace merilo::lincheck {

/// "1 operation", "2 operations", "1 process", "3 processes" (`n` as text).
[[nodiscard]] std::string counted_text(const std::string& n, const std::string& noun);
/// `counted_text` of a number.
[[nodiscard]] std::string counted(std::size_t n, const std::string& noun);
/// 1234567 as "1,234,567".
[[nodiscard]] std::string thousands(std::uint64_t n);
/// "ok", "fail", "info", "never completed".
[[nodiscard]] const char* completion_name(Completion c);

/// Checks `history` with adapter `A` and prints what it found.
template <class A>
class Checker {
 public:
  using Op = linearize::Operation<typename A::Cmd, typename A::Resp>;
  using V = std::string;

  Checker(const Args& args, const RawHistory& history, ReportFile* report)
      : args_(args), history_(history), report_(report) {}

  int run(std::ostream& out, std::ostream& err) {
    for (std::size_t i = 0; i < history_.ops.size(); ++i) {
      auto converted = A::convert(history_.ops[i], history_.meaning);
      if (converted.error) {
        fmt::print(err, "merilo-lincheck: {}: {}\n", args_.source, converted.error->text());
        return kBadInput;
      }
      if (converted.op) {
        ops_.push_back(std::move(*converted.op));
        raw_of_.push_back(i);
      }
    }
    linearize::HistoryOptions options;
    options.budget = args_.budget;
    // check_args() bounds both, so neither conversion overflows.
    options.timeout =
        std::chrono::nanoseconds(static_cast<std::int64_t>(args_.timeout_seconds * 1e9));
    options.cache_bytes = static_cast<std::size_t>(args_.cache_mb << 20U);
    const auto start = std::chrono::steady_clock::now();
    result_ = linearize::check_history(typename A::Spec{}, A::initial(args_), ops_, options);
    seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    int code = kInternalError;
    switch (result_.verdict) {
      case linearize::Verdict::linearizable:
        code = kLinearizable;
        break;
      case linearize::Verdict::not_linearizable:
        code = kNotLinearizable;
        break;
      case linearize::Verdict::undecided:
        code = kUndecided;
        break;
      case linearize::Verdict::usage_error:
        fmt::print(err, "merilo-lincheck: {}: {}\n", args_.source, result_.error);
        return kBadInput;
      case linearize::Verdict::crashed:
        fmt::print(err, "merilo-lincheck: internal error: {}\n", result_.error);
        return kInternalError;
    }
    summary(out, !args_.explain);
    if (args_.explain) explain(out);
    if (report_ != nullptr) {
      std::string problem;
      try {
        problem = report_->commit(linearize::render_html(html_report()));
      } catch (const std::invalid_argument& e) {
        problem = fmt::format("cannot draw the HTML report: {}", e.what());
      }
      if (!problem.empty()) {
        fmt::print(err, "merilo-lincheck: {}\n", problem);
        return kBadInput;
      }
    }
    return code;
  }

 private:
  const RawOp& raw(std::size_t op) const { return history_.ops[raw_of_[op]]; }

  std::string keys_text() const {
    const std::size_t keys = result_.partitions.size();
    if (keys == 1 && result_.partitions[0].empty()) return "";
    return ", " + counted(keys, "key");
  }
  // Keys are JSON text ("x" with its quotes, or 1), as the history wrote them.
  static std::string key_of(const std::string& key) {
    return key.empty() ? std::string() : fmt::format(" of key {}", clipped(key, kMaxShown));
  }

  // "write 3", "read -> 4", "cas [1, 2] -> fail", "write 5 -> info"
  std::string op_text(std::size_t op) const {
    const Op& o = ops_[op];
    std::string text = merilo::core::describe(o.command);
    const RawOp& r = raw(op);
    if (r.completion == Completion::ok) {
      if (A::returns_value(o.command)) text += " -> " + merilo::core::describe(*o.response);
    } else {
      text += fmt::format(" -> {}", completion_name(r.completion));
    }
    return text;
  }

  // Where an event is: "5", or "1, column 95" when lines hold several
  // events (an EDN history on one line) and the line alone would not say.
  std::string at(std::size_t line, std::size_t column) const {
    if (!history_.shared_lines || column == 0) return fmt::format("{}", line);
    return fmt::format("{}, column {}", line, column);
  }
  std::string invoked_at(const RawOp& r) const { return at(r.invoke_line, r.invoke_column); }
  std::string returned_at(const RawOp& r) const { return at(r.complete_line, r.complete_column); }

  std::string op_row(std::size_t op, std::size_t width) const {
    const RawOp& r = raw(op);
    if (history_.shared_lines) {
      return fmt::format("line {:>6}:{:<5} p{:<4} {:<{}}", r.invoke_line, r.invoke_column,
                         r.process, op_text(op), width);
    }
    return fmt::format("line {:>6}  p{:<4} {:<{}}", r.invoke_line, r.process, op_text(op), width);
  }
  // (width 0: no padding after the text)

  /// The verdict's one line; `hint` adds "(--explain shows why)".
  void summary(std::ostream& out, bool hint) const {
    const auto& e = result_.explanation;
    const std::string steps = thousands(result_.evaluations);
    switch (result_.verdict) {
      case linearize::Verdict::linearizable:
        fmt::print(out, "linearizable: {} ({}{}), {}, {:.2f} s\n",
                   counted(ops_.size(), "operation"), counted(history_.processes, "process"),
                   keys_text(), counted_text(steps, "step"), seconds_);
        break;
      case linearize::Verdict::not_linearizable: {
        const std::size_t stuck = *e.returned;
        if (e.longest) {
          fmt::print(out,
                     "not linearizable: no valid order{} gets past {} of its {}; it gets stuck",
                     key_of(e.partition), e.prefix.size(), counted(e.part_size, "operation"));
        } else {
          fmt::print(out, "not linearizable: a valid order{} places {} of its {}, then gets stuck",
                     key_of(e.partition), e.prefix.size(), counted(e.part_size, "operation"));
        }
        fmt::print(out, " at the {} on line {} (process {}){}\n",
                   merilo::core::describe(ops_[stuck].command), invoked_at(raw(stuck)),
                   raw(stuck).process, hint ? " (--explain shows why)" : "");
        break;
      }
      case linearize::Verdict::usage_error:
      case linearize::Verdict::crashed:
        break;  // reported by run()
      case linearize::Verdict::undecided:
        fmt::print(out,
                   "undecided: {} after placing {} of {}{}; this is not a pass "
                   "(raise --budget{}){}\n",
                   result_.stop == linearize::SearchStop::timeout
                       ? fmt::format("the {:g} s timeout passed", args_.timeout_seconds)
                       : fmt::format("the budget of {} ran out", counted_text(steps, "step")),
                   e.prefix.size(), counted(e.part_size, "operation"), key_of(e.partition),
                   result_.stop == linearize::SearchStop::timeout ? " or --timeout" : "",
                   result_.cache_full ? "; the state cache filled up (raise --cache-mb)" : "");
        break;
    }
  }

  // How the events are ordered in real time. EDN events one a line are in
  // line order too, and say so, as their JSON Lines twins do.
  std::string order_text() const {
    switch (history_.order) {
      case Order::time:
        return "ordered by \"time\"";
      case Order::line:
        return "ordered by line";
      case Order::position:
        return history_.shared_lines ? "ordered by position in the file" : "ordered by line";
    }
    return "";
  }

  void explain(std::ostream& out) const {
    const auto& e = result_.explanation;
    fmt::print(out, "\n  model    {}{}\n", A::kName,
               e.partition.empty() ? "" : ", key " + clipped(e.partition, kMaxShown));
    fmt::print(out, "  history  {} from {}, {} ({})\n", counted(ops_.size(), "operation"),
               counted(history_.processes, "process"), counted(history_.events, "event"),
               order_text());
    fmt::print(out, "  search   {}, {} cached ({:.1f} MB{}), {:.2f} s\n",
               counted_text(thousands(result_.evaluations), "step"),
               counted_text(thousands(result_.cache_entries), "state"),
               static_cast<double>(result_.cache_bytes) / (1024.0 * 1024.0),
               result_.cache_full ? ", full" : "", seconds_);
    if (result_.verdict == linearize::Verdict::linearizable) {
      fmt::print(out, "\nEvery operation that returned fits one order{}.\n",
                 result_.partitions.size() > 1 ? " per key" : "");
      return;
    }
    const std::vector<std::size_t>& prefix = e.prefix;
    constexpr std::size_t kTail = 10;
    const std::size_t from = prefix.size() > kTail ? prefix.size() - kTail : 0;
    std::size_t width = 12;
    for (std::size_t i = from; i < prefix.size(); ++i)
      width = std::max(width, op_text(prefix[i]).size());
    for (const auto& c : e.candidates) width = std::max(width, op_text(c.operation).size());
    const char* what = result_.verdict != linearize::Verdict::not_linearizable
                           ? "The longest partial order found places"
                       : e.longest ? "The longest valid order places"
                                   : "A valid order the search could not extend places";
    fmt::print(out, "\n{} {} of the {}{}.", what, prefix.size(), counted(e.part_size, "operation"),
               key_of(e.partition));
    if (prefix.empty()) {
      fmt::print(out, "\n");
    } else {
      fmt::print(out, " {}:\n",
                 from > 0
                     ? fmt::format("Its last {} ({} earlier not shown)", prefix.size() - from, from)
                     : std::string("In order"));
      for (std::size_t i = from; i < prefix.size(); ++i) {
        fmt::print(out, "  #{:<6} {}\n", i + 1, op_row(prefix[i], 0));
      }
    }
    typename A::Model model = A::initial(args_);
    typename A::Spec spec{};
    for (const std::size_t op : prefix) model = linearize::advance(spec, model, ops_[op]);
    fmt::print(out, "  the {} then holds {}\n", A::kHolder, merilo::core::describe(model));
    if (result_.verdict != linearize::Verdict::not_linearizable) return;
    const std::size_t stuck = *e.returned;
    fmt::print(out,
               "\nThen nothing fits. The {} on line {} (process {}) returned on line {}, so it "
               "or another operation invoked before then had to come next:\n",
               merilo::core::describe(ops_[stuck].command), invoked_at(raw(stuck)),
               raw(stuck).process, returned_at(raw(stuck)));
    for (const auto& c : e.candidates) {
      fmt::print(
          out, "  {}  {}\n", op_row(c.operation, width),
          c.violation ? *c.violation : std::string("fits, but every order on from there fails"));
    }
    if (e.more_candidates > 0) fmt::print(out, "  ... and {} more\n", e.more_candidates);
  }

  /// The history and the result as the HTML page draws them: the summary
  /// line and the --explain text above, word for word, and the same stuck
  /// operation (`explanation.returned`) they name.
  linearize::HtmlReport html_report() const {
    linearize::HtmlReport report;
    report.title = fmt::format("merilo-lincheck: {} ({} model)", args_.source, A::kName);
    report.verdict = result_.verdict;
    std::ostringstream line;
    summary(line, false);
    report.summary = line.str();
    while (!report.summary.empty() && report.summary.back() == '\n') report.summary.pop_back();
    std::ostringstream text;
    explain(text);
    report.explanation = text.str();
    report.explanation.erase(0, report.explanation.find_first_not_of('\n'));
    report.time_unit = history_.order == Order::time   ? "ns"
                       : history_.order == Order::line ? "line"
                                                       : "event";
    // One lane per process, in increasing order of process number.
    std::vector<std::uint64_t> processes;
    for (const std::size_t i : raw_of_) processes.push_back(history_.ops[i].process);
    std::sort(processes.begin(), processes.end());
    processes.erase(std::unique(processes.begin(), processes.end()), processes.end());
    for (const std::uint64_t p : processes) report.lanes.push_back(fmt::format("p{}", p));
    for (std::size_t op = 0; op < ops_.size(); ++op) {
      const RawOp& r = raw(op);
      linearize::HtmlOperation h;
      h.lane = static_cast<std::size_t>(
          std::lower_bound(processes.begin(), processes.end(), r.process) - processes.begin());
      h.call = merilo::core::describe(ops_[op].command);
      if (r.key) h.call = clipped(*r.key, kMaxShown) + " " + h.call;
      if (r.completion != Completion::ok) {
        h.result = completion_name(r.completion);
      } else {
        // An ok that returns nothing (a write) says no more than its bar does.
        if (A::returns_value(ops_[op].command))
          h.result = merilo::core::describe(*ops_[op].response);
      }
      h.invoked_at = ops_[op].invoked_at;
      h.returned_at = ops_[op].response ? ops_[op].returned_at : linearize::kNever;
      h.line = r.invoke_line;
      h.details = r.complete_line > 0
                      ? fmt::format("invoked on line {}, {} on line {}", invoked_at(r),
                                    completion_name(r.completion), returned_at(r))
                      : fmt::format("invoked on line {}, never completed", invoked_at(r));
      report.operations.push_back(std::move(h));
    }
    const auto& e = result_.explanation;
    if (result_.verdict == linearize::Verdict::linearizable) {
      if (result_.orders.size() == 1) report.order = result_.orders[0];
      return report;
    }
    report.order = e.prefix;
    if (result_.verdict != linearize::Verdict::not_linearizable || !e.returned) return report;
    const std::size_t stuck = *e.returned;
    report.stuck = {stuck};
    report.operations[stuck].note = fmt::format(
        "every order gets stuck here: it returned on line {}, so it or another operation "
        "invoked before then had to come next",
        returned_at(raw(stuck)));
    for (const auto& c : e.candidates) {
      report.candidates.push_back(c.operation);
      std::string& note = report.operations[c.operation].note;
      note += note.empty() ? "could not go next: " : "; could not go next: ";
      note += c.violation ? *c.violation : "fits, but every order on from there fails";
    }
    return report;
  }

  const Args& args_;
  const RawHistory& history_;
  ReportFile* report_;  // where --html goes, or null
  std::vector<Op> ops_;
  std::vector<std::size_t> raw_of_;
  linearize::HistoryResult<V> result_;
  double seconds_ = 0;
};

}  // namespace merilo::lincheck

#endif  // MERILO_TOOLS_LINCHECK_CHECKER_HPP
