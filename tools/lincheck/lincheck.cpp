// lincheck.cpp — turns read histories into each built-in model's
// operations (checking value shapes), runs check_history, prints results.
#include "lincheck.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <ios>
#include <iterator>
#include <limits>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include <merilo/core/text.hpp>
#include <merilo/linearize/history.hpp>
#include <merilo/linearize/html.hpp>
#include <merilo/linearize/models.hpp>

#include "history_file.hpp"
#include "report_file.hpp"

namespace merilo::lincheck {

namespace {

using nlohmann::json;
namespace lin = merilo::linearize;

std::optional<std::int64_t> as_int(const json& v) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      return std::nullopt;
    return static_cast<std::int64_t>(u);
  }
  if (v.is_number_integer()) return v.get<std::int64_t>();
  return std::nullopt;
}

// A value of the wrong shape in the invoke of `op`.
InputError shape(const RawOp& op, std::string what, const json& got) {
  return InputError{op.invoke_line, fmt::format("{} needs {}, got {}", op.f, what, shown(got)),
                    op.invoke_column};
}

/// What happens to one raw operation: an error, dropped (a fail that took
/// no effect), or an operation for the checker.
template <class C, class R>
struct Converted {
  std::optional<InputError> error;
  std::optional<lin::Operation<C, R>> op;
};

template <class C, class R>
lin::Operation<C, R> make(const RawOp& raw, C cmd, std::optional<R> response) {
  lin::Operation<C, R> op{std::move(cmd), std::move(response), raw.invoked_at, lin::kNever};
  if (op.response) op.returned_at = raw.returned_at;
  op.process = static_cast<lin::Caller>(raw.process);
  return op;
}

// --- register ----------------------------------------------------------------

struct RegisterAdapter {
  using Spec = lin::RegisterSpec;
  using Model = lin::RegisterModel;
  using Cmd = lin::RegisterCmd;
  using Resp = lin::RegisterResponse;
  static constexpr const char* kName = "register";
  static constexpr const char* kHolder = "register";
  static std::vector<std::string> fs() { return {"read", "write", "cas"}; }
  static bool returns_value(const Cmd& c) { return c.kind == Cmd::Kind::read; }
  /// Null, or --initial's value (Knossos's registers start at 0).
  static Model initial(const Args& args) { return Model{args.initial}; }

  static Converted<Cmd, Resp> convert(const RawOp& raw) {
    Converted<Cmd, Resp> out;
    Cmd cmd;
    cmd.key = raw.key.value_or("");
    if (raw.f == "read") {
      cmd.kind = Cmd::Kind::read;
    } else if (raw.f == "write") {
      const auto v = as_int(raw.argument);
      if (!v) {
        out.error = shape(raw, "an integer value", raw.argument);
        return out;
      }
      cmd.kind = Cmd::Kind::write;
      cmd.value = *v;
    } else {
      const json& a = raw.argument;
      if (!a.is_array() || a.size() != 2 || !as_int(a[0]) || !as_int(a[1])) {
        out.error = shape(raw, "[expected, new] (two integers)", a);
        return out;
      }
      cmd.kind = Cmd::Kind::cas;
      cmd.value = *as_int(a[0]);
      cmd.swap = *as_int(a[1]);
    }
    switch (raw.completion) {
      case Completion::ok: {
        Resp r;
        if (cmd.kind == Cmd::Kind::read && !raw.result.is_null()) {
          r.value = as_int(raw.result);
          if (!r.value) {
            out.error = InputError{raw.complete_line,
                                   fmt::format("a read's ok value must be an integer or null, "
                                               "got {}",
                                               shown(raw.result)),
                                   raw.complete_column};
            return out;
          }
        }
        out.op = make<Cmd, Resp>(raw, std::move(cmd), r);
        return out;
      }
      case Completion::fail:
        // A failed cas means the register did not hold `expected`; any
        // other fail took no effect and says nothing.
        if (cmd.kind == Cmd::Kind::cas) out.op = make<Cmd, Resp>(raw, std::move(cmd), Resp::fail());
        return out;
      case Completion::info:
      case Completion::missing:
        out.op = make<Cmd, Resp>(raw, std::move(cmd), std::nullopt);
        return out;
    }
    return out;
  }
};

// --- kv ----------------------------------------------------------------------

struct KvAdapter {
  using Spec = lin::KvSpec;
  using Model = lin::KvModel;
  using Cmd = lin::KvCmd;
  using Resp = lin::KvResponse;
  static constexpr const char* kName = "kv";
  static constexpr const char* kHolder = "key";
  static std::vector<std::string> fs() { return {"get", "put", "append"}; }
  static bool returns_value(const Cmd& c) { return c.kind == Cmd::Kind::get; }
  static Model initial(const Args&) { return Model{}; }

  static Converted<Cmd, Resp> convert(const RawOp& raw) {
    Converted<Cmd, Resp> out;
    if (!raw.key) {
      out.error = InputError{raw.invoke_line,
                             "kv operations need a \"key\" (or --independent [key value] tuples)",
                             raw.invoke_column};
      return out;
    }
    Cmd cmd;
    cmd.key = *raw.key;
    if (raw.f == "get") {
      cmd.kind = Cmd::Kind::get;
    } else {
      if (!raw.argument.is_string()) {
        out.error = shape(raw, "a string value", raw.argument);
        return out;
      }
      cmd.kind = raw.f == "put" ? Cmd::Kind::put : Cmd::Kind::append;
      cmd.value = raw.argument.get<std::string>();
    }
    switch (raw.completion) {
      case Completion::ok: {
        Resp r;
        if (cmd.kind == Cmd::Kind::get) {
          if (raw.result.is_string()) {
            r.value = raw.result.get<std::string>();
          } else if (!raw.result.is_null()) {  // null: never written, reads ""
            out.error = InputError{raw.complete_line,
                                   fmt::format("a get's ok value must be a string (or null for "
                                               "a key never written), got {}",
                                               shown(raw.result)),
                                   raw.complete_column};
            return out;
          }
        }
        out.op = make<Cmd, Resp>(raw, std::move(cmd), r);
        return out;
      }
      case Completion::fail:
        return out;  // took no effect
      case Completion::info:
      case Completion::missing:
        out.op = make<Cmd, Resp>(raw, std::move(cmd), std::nullopt);
        return out;
    }
    return out;
  }
};

// --- queue -------------------------------------------------------------------

/// An operation of a container of integers (queue, bag): one f puts an
/// integer in, the other takes one out and returns it (null: it was empty).
struct PutTake {
  bool put = false;
  std::int64_t value = 0;             ///< put: the integer.
  std::optional<std::int64_t> taken;  ///< take, completed ok: what came out.
};

/// Reads `raw` as a put (its f is `put_f`) or a take from `container`; an
/// error names the value of the wrong shape.
std::optional<InputError> read_put_take(const RawOp& raw, const char* put_f, const char* container,
                                        PutTake& out) {
  out.put = raw.f == put_f;
  if (out.put) {
    const auto v = as_int(raw.argument);
    if (!v) return shape(raw, "an integer value", raw.argument);
    out.value = *v;
  } else if (raw.completion == Completion::ok && !raw.result.is_null()) {
    out.taken = as_int(raw.result);
    if (!out.taken) {
      return InputError{raw.complete_line,
                        fmt::format("a {}'s ok value must be an integer, or null for an empty "
                                    "{}, got {}",
                                    raw.f, container, shown(raw.result)),
                        raw.complete_column};
    }
  }
  return std::nullopt;
}

struct QueueAdapter {
  using Spec = lin::QueueSpec;
  using Model = lin::QueueModel;
  using Cmd = lin::QueueCmd;
  using Resp = lin::QueueResponse;
  static constexpr const char* kName = "queue";
  static constexpr const char* kHolder = "queue";
  static std::vector<std::string> fs() { return {"enqueue", "dequeue"}; }
  static bool returns_value(const Cmd& c) { return c.kind == Cmd::Kind::dequeue; }
  static Model initial(const Args&) { return Model{}; }

  static Converted<Cmd, Resp> convert(const RawOp& raw) {
    Converted<Cmd, Resp> out;
    PutTake read;
    out.error = read_put_take(raw, "enqueue", "queue", read);
    if (out.error) return out;
    Cmd cmd{read.put ? Cmd::Kind::enqueue : Cmd::Kind::dequeue, read.value, raw.key.value_or("")};
    switch (raw.completion) {
      case Completion::ok:
        out.op = make<Cmd, Resp>(raw, std::move(cmd), Resp{false, read.taken});
        return out;
      case Completion::fail:
        return out;  // took no effect
      case Completion::info:
      case Completion::missing:
        out.op = make<Cmd, Resp>(raw, std::move(cmd), std::nullopt);
        return out;
    }
    return out;
  }
};

// --- bag ---------------------------------------------------------------------

struct BagAdapter {
  using Spec = lin::BagSpec;
  using Model = lin::BagModel;
  using Cmd = lin::BagCmd;
  using Resp = lin::BagResponse;
  static constexpr const char* kName = "bag";
  static constexpr const char* kHolder = "bag";
  static std::vector<std::string> fs() { return {"add", "remove"}; }
  static bool returns_value(const Cmd& c) { return c.kind == Cmd::Kind::remove; }
  static Model initial(const Args&) { return Model{}; }

  static Converted<Cmd, Resp> convert(const RawOp& raw) {
    Converted<Cmd, Resp> out;
    PutTake read;
    out.error = read_put_take(raw, "add", "bag", read);
    if (out.error) return out;
    Cmd cmd{read.put ? Cmd::Kind::add : Cmd::Kind::remove, read.value, raw.key.value_or("")};
    switch (raw.completion) {
      case Completion::ok:
        out.op = make<Cmd, Resp>(raw, std::move(cmd), Resp{read.taken});
        return out;
      case Completion::fail:
        return out;  // took no effect
      case Completion::info:
      case Completion::missing:
        if (read.put) {
          // Took effect at some moment after its invoke, or never; never is
          // the same, to every later remove, as taking effect after them
          // all. So it is an add that returns at the end of time.
          out.op = make<Cmd, Resp>(raw, std::move(cmd), Resp{});
          out.op->returned_at = lin::kNever;
          return out;
        }
        out.error = InputError{
            raw.invoke_line,
            fmt::format("the remove invoked here {}: the bag model cannot tell which element "
                        "it took, if any (only completed removes can be checked)",
                        raw.completion == Completion::info ? "ended with info" : "never completed"),
            raw.invoke_column};
        return out;
    }
    return out;
  }
};

// --- output ------------------------------------------------------------------

// "1 operation", "2 operations", "1 process", "3 processes".
std::string counted_text(const std::string& n, const std::string& noun) {
  if (n == "1") return "1 " + noun;
  return n + " " + noun + (noun.ends_with("s") ? "es" : "s");
}
std::string counted(std::size_t n, const std::string& noun) {
  return counted_text(std::to_string(n), noun);
}

std::string thousands(std::uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

const char* completion_name(Completion c) {
  switch (c) {
    case Completion::ok:
      return "ok";
    case Completion::fail:
      return "fail";
    case Completion::info:
      return "info";
    case Completion::missing:
      return "never completed";
  }
  return "?";
}

template <class A>
class Checker {
 public:
  using Op = lin::Operation<typename A::Cmd, typename A::Resp>;
  using V = std::string;

  Checker(const Args& args, const RawHistory& history, ReportFile* report)
      : args_(args), history_(history), report_(report) {}

  int run(std::ostream& out, std::ostream& err) {
    for (std::size_t i = 0; i < history_.ops.size(); ++i) {
      auto converted = A::convert(history_.ops[i]);
      if (converted.error) {
        fmt::print(err, "merilo-lincheck: {}: {}\n", args_.source, converted.error->text());
        return kBadInput;
      }
      if (converted.op) {
        ops_.push_back(std::move(*converted.op));
        raw_of_.push_back(i);
      }
    }
    lin::HistoryOptions options;
    options.budget = args_.budget;
    // check_args() bounds both, so neither conversion overflows.
    options.timeout =
        std::chrono::nanoseconds(static_cast<std::int64_t>(args_.timeout_seconds * 1e9));
    options.cache_bytes = static_cast<std::size_t>(args_.cache_mb << 20U);
    const auto start = std::chrono::steady_clock::now();
    result_ = lin::check_history(typename A::Spec{}, A::initial(args_), ops_, options);
    seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    int code = kInternalError;
    switch (result_.verdict) {
      case lin::Verdict::linearizable:
        code = kLinearizable;
        break;
      case lin::Verdict::not_linearizable:
        code = kNotLinearizable;
        break;
      case lin::Verdict::undecided:
        code = kUndecided;
        break;
      case lin::Verdict::usage_error:
        fmt::print(err, "merilo-lincheck: {}: {}\n", args_.source, result_.error);
        return kBadInput;
      case lin::Verdict::crashed:
        fmt::print(err, "merilo-lincheck: internal error: {}\n", result_.error);
        return kInternalError;
    }
    summary(out, !args_.explain);
    if (args_.explain) explain(out);
    if (report_ != nullptr) {
      std::string problem;
      try {
        problem = report_->commit(lin::render_html(html_report()));
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
    std::string text = lin::describe(o.command);
    const RawOp& r = raw(op);
    if (r.completion == Completion::ok) {
      if (A::returns_value(o.command)) text += " -> " + lin::describe(*o.response);
    } else {
      text += fmt::format(" -> {}", completion_name(r.completion));
    }
    return text;
  }

  std::string op_row(std::size_t op, std::size_t width) const {
    const RawOp& r = raw(op);
    return fmt::format("line {:>6}  p{:<4} {:<{}}", r.invoke_line, r.process, op_text(op), width);
  }
  // (width 0: no padding after the text)

  /// The verdict's one line; `hint` adds "(--explain shows why)".
  void summary(std::ostream& out, bool hint) const {
    const auto& e = result_.explanation;
    const std::string steps = thousands(result_.evaluations);
    switch (result_.verdict) {
      case lin::Verdict::linearizable:
        fmt::print(out, "linearizable: {} ({}{}), {}, {:.2f} s\n",
                   counted(ops_.size(), "operation"), counted(history_.processes, "process"),
                   keys_text(), counted_text(steps, "step"), seconds_);
        break;
      case lin::Verdict::not_linearizable: {
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
                   lin::describe(ops_[stuck].command), raw(stuck).invoke_line, raw(stuck).process,
                   hint ? " (--explain shows why)" : "");
        break;
      }
      case lin::Verdict::usage_error:
      case lin::Verdict::crashed:
        break;  // reported by run()
      case lin::Verdict::undecided:
        fmt::print(out,
                   "undecided: {} after placing {} of {}{}; this is not a pass "
                   "(raise --budget{}){}\n",
                   result_.stop == lin::SearchStop::timeout
                       ? fmt::format("the {:g} s timeout passed", args_.timeout_seconds)
                       : fmt::format("the budget of {} ran out", counted_text(steps, "step")),
                   e.prefix.size(), counted(e.part_size, "operation"), key_of(e.partition),
                   result_.stop == lin::SearchStop::timeout ? " or --timeout" : "",
                   result_.cache_full ? "; the state cache filled up (raise --cache-mb)" : "");
        break;
    }
  }

  void explain(std::ostream& out) const {
    const auto& e = result_.explanation;
    fmt::print(out, "\n  model    {}{}\n", A::kName,
               e.partition.empty() ? "" : ", key " + clipped(e.partition, kMaxShown));
    fmt::print(out, "  history  {} from {}, {} ({})\n", counted(ops_.size(), "operation"),
               counted(history_.processes, "process"), counted(history_.events, "event"),
               history_.timed ? "ordered by \"time\"" : "ordered by line");
    fmt::print(out, "  search   {}, {} cached ({:.1f} MB{}), {:.2f} s\n",
               counted_text(thousands(result_.evaluations), "step"),
               counted_text(thousands(result_.cache_entries), "state"),
               static_cast<double>(result_.cache_bytes) / (1024.0 * 1024.0),
               result_.cache_full ? ", full" : "", seconds_);
    if (result_.verdict == lin::Verdict::linearizable) {
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
    const char* what = result_.verdict != lin::Verdict::not_linearizable
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
    for (const std::size_t op : prefix) model = lin::advance(spec, model, ops_[op]);
    fmt::print(out, "  the {} then holds {}\n", A::kHolder, lin::describe(model));
    if (result_.verdict != lin::Verdict::not_linearizable) return;
    const std::size_t stuck = *e.returned;
    fmt::print(out,
               "\nThen nothing fits. The {} on line {} (process {}) returned on line {}, so it "
               "or another operation invoked before then had to come next:\n",
               lin::describe(ops_[stuck].command), raw(stuck).invoke_line, raw(stuck).process,
               raw(stuck).complete_line);
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
  lin::HtmlReport html_report() const {
    lin::HtmlReport report;
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
    report.time_unit = history_.timed ? "ns" : "line";
    // One lane per process, in increasing order of process number.
    std::vector<std::uint64_t> processes;
    for (const std::size_t i : raw_of_) processes.push_back(history_.ops[i].process);
    std::sort(processes.begin(), processes.end());
    processes.erase(std::unique(processes.begin(), processes.end()), processes.end());
    for (const std::uint64_t p : processes) report.lanes.push_back(fmt::format("p{}", p));
    for (std::size_t op = 0; op < ops_.size(); ++op) {
      const RawOp& r = raw(op);
      lin::HtmlOperation h;
      h.lane = static_cast<std::size_t>(
          std::lower_bound(processes.begin(), processes.end(), r.process) - processes.begin());
      h.call = lin::describe(ops_[op].command);
      if (r.key) h.call = clipped(*r.key, kMaxShown) + " " + h.call;
      if (r.completion != Completion::ok) {
        h.result = completion_name(r.completion);
      } else {
        // An ok that returns nothing (a write) says no more than its bar does.
        if (A::returns_value(ops_[op].command)) h.result = lin::describe(*ops_[op].response);
      }
      h.invoked_at = ops_[op].invoked_at;
      h.returned_at = ops_[op].response ? ops_[op].returned_at : lin::kNever;
      h.line = r.invoke_line;
      h.details = r.complete_line > 0
                      ? fmt::format("invoked on line {}, {} on line {}", r.invoke_line,
                                    completion_name(r.completion), r.complete_line)
                      : fmt::format("invoked on line {}, never completed", r.invoke_line);
      report.operations.push_back(std::move(h));
    }
    const auto& e = result_.explanation;
    if (result_.verdict == lin::Verdict::linearizable) {
      if (result_.orders.size() == 1) report.order = result_.orders[0];
      return report;
    }
    report.order = e.prefix;
    if (result_.verdict != lin::Verdict::not_linearizable || !e.returned) return report;
    const std::size_t stuck = *e.returned;
    report.stuck = {stuck};
    report.operations[stuck].note = fmt::format(
        "every order gets stuck here: it returned on line {}, so it or another operation "
        "invoked before then had to come next",
        raw(stuck).complete_line);
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
  lin::HistoryResult<V> result_;
  double seconds_ = 0;
};

template <class A>
int run_model(const Args& args, std::istream& in, std::ostream& out, std::ostream& err,
              ReportFile* report) {
  RawHistory history;
  ReadOptions read;
  read.fs = A::fs();
  read.model = A::kName;
  read.max_line_bytes = args.max_line_bytes;
  read.independent = args.independent;
  const bool edn = args.format == "edn" || (args.format == "auto" && args.input.ends_with(".edn"));
  if (auto e = edn ? read_edn_history(in, read, history) : read_history(in, read, history)) {
    fmt::print(err, "merilo-lincheck: {}: {}\n", args.source, e->text());
    return kBadInput;
  }
  return Checker<A>(args, history, report).run(out, err);
}

/// Every model merilo-lincheck knows, with the adapter that runs it: the one
/// place the list is spelled.
struct ModelEntry {
  const char* name;
  int (*run)(const Args&, std::istream&, std::ostream&, std::ostream&, ReportFile*);
};
constexpr ModelEntry kModels[] = {
    {RegisterAdapter::kName, run_model<RegisterAdapter>},
    {KvAdapter::kName, run_model<KvAdapter>},
    {QueueAdapter::kName, run_model<QueueAdapter>},
    {BagAdapter::kName, run_model<BagAdapter>},
};

}  // namespace

std::string model_names(const char* separator, const char* last) {
  std::string out;
  const std::size_t n = std::size(kModels);
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) out += i + 1 == n ? last : separator;
    out += kModels[i].name;
  }
  return out;
}

bool known_model(const std::string& name) {
  return std::any_of(std::begin(kModels), std::end(kModels),
                     [&](const ModelEntry& m) { return name == m.name; });
}

std::string check_args(const Args& args) {
  if (!known_model(args.model)) {
    return fmt::format("unknown model \"{}\" (expected {})", clipped(args.model, kMaxShown),
                       model_names(", ", " or "));
  }
  if (args.budget == 0) return "--budget must be at least 1";
  if (!(args.timeout_seconds >= 0 && args.timeout_seconds <= kMaxTimeoutSeconds)) {
    return fmt::format("--timeout must be a number of seconds from 0 (none) to {:g}",
                       kMaxTimeoutSeconds);
  }
  constexpr std::uint64_t kMaxCacheMb = std::numeric_limits<std::size_t>::max() >> 20U;
  if (args.cache_mb == 0 || args.cache_mb > kMaxCacheMb) {
    return fmt::format("--cache-mb must be from 1 to {}", kMaxCacheMb);
  }
  if (args.max_line_bytes == 0) return "--max-line-bytes must be at least 1";
  if (args.format != "auto" && args.format != "jsonl" && args.format != "edn") {
    return fmt::format(
        "unknown --format \"{}\" (expected jsonl or edn; by default a file "
        "ending in .edn is EDN, anything else JSON Lines)",
        clipped(args.format, kMaxShown));
  }
  if (args.initial && args.model != RegisterAdapter::kName) {
    return fmt::format(
        "--initial sets the register model's first value; the {} model starts "
        "empty",
        args.model);
  }
  return {};
}

int run(const Args& args, std::istream& in, std::ostream& out, std::ostream& err) {
  try {
    if (const std::string problem = check_args(args); !problem.empty()) {
      fmt::print(err, "merilo-lincheck: {}\n", problem);
      return kBadInput;
    }
    // Checked before the history is read: a report that cannot be written
    // is found before the check runs, and written only once it is done.
    ReportFile report;
    if (!args.html.empty()) {
      const FileId input = args.input.empty() ? FileId{} : file_id(args.input);
      if (const std::string problem = report.open(args.html, input); !problem.empty()) {
        fmt::print(err, "merilo-lincheck: {}\n", problem);
        return kBadInput;
      }
    }
    for (const ModelEntry& m : kModels) {
      if (args.model == m.name) {
        return m.run(args, in, out, err, args.html.empty() ? nullptr : &report);
      }
    }
    return kInternalError;                     // check_args() knows every model
  } catch (const std::ios_base::failure& e) {  // the history could not be read (EIO, EISDIR)
    fmt::print(err, "merilo-lincheck: cannot read {}: {}\n", args.source,
               core::printable(e.what()));
    return kBadInput;
  } catch (const std::exception& e) {
    fmt::print(err, "merilo-lincheck: internal error: {}\n", core::printable(e.what()));
    return kInternalError;
  }
}

}  // namespace merilo::lincheck
