// lincheck.cpp — turns read histories into each built-in model's
// operations (checking value shapes), runs check_history, prints results.
#include "lincheck.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include <merilo/linearize/history.hpp>
#include <merilo/linearize/models.hpp>

#include "history_file.hpp"

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

std::string shown(const json& v) {
  std::string s = v.dump();
  if (s.size() > 40) s = s.substr(0, 40) + "…";
  return s;
}

InputError shape(const RawOp& op, std::size_t line, std::string what, const json& got) {
  return InputError{line, fmt::format("{} needs {}, got {}", op.f, what, shown(got))};
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

  static Converted<Cmd, Resp> convert(const RawOp& raw) {
    Converted<Cmd, Resp> out;
    Cmd cmd;
    cmd.key = raw.key.value_or("");
    if (raw.f == "read") {
      cmd.kind = Cmd::Kind::read;
    } else if (raw.f == "write") {
      const auto v = as_int(raw.argument);
      if (!v) {
        out.error = shape(raw, raw.invoke_line, "an integer value", raw.argument);
        return out;
      }
      cmd.kind = Cmd::Kind::write;
      cmd.value = *v;
    } else {
      const json& a = raw.argument;
      if (!a.is_array() || a.size() != 2 || !as_int(a[0]) || !as_int(a[1])) {
        out.error = shape(raw, raw.invoke_line, "[expected, new] (two integers)", a);
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
                                               shown(raw.result))};
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

  static Converted<Cmd, Resp> convert(const RawOp& raw) {
    Converted<Cmd, Resp> out;
    if (!raw.key) {
      out.error = InputError{raw.invoke_line, "kv operations need a \"key\""};
      return out;
    }
    Cmd cmd;
    cmd.key = *raw.key;
    if (raw.f == "get") {
      cmd.kind = Cmd::Kind::get;
    } else {
      if (!raw.argument.is_string()) {
        out.error = shape(raw, raw.invoke_line, "a string value", raw.argument);
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
                                               shown(raw.result))};
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

struct QueueAdapter {
  using Spec = lin::QueueSpec;
  using Model = lin::QueueModel;
  using Cmd = lin::QueueCmd;
  using Resp = lin::QueueResponse;
  static constexpr const char* kName = "queue";
  static constexpr const char* kHolder = "queue";
  static std::vector<std::string> fs() { return {"enqueue", "dequeue"}; }
  static bool returns_value(const Cmd& c) { return c.kind == Cmd::Kind::dequeue; }

  static Converted<Cmd, Resp> convert(const RawOp& raw) {
    Converted<Cmd, Resp> out;
    Cmd cmd;
    cmd.key = raw.key.value_or("");
    if (raw.f == "enqueue") {
      const auto v = as_int(raw.argument);
      if (!v) {
        out.error = shape(raw, raw.invoke_line, "an integer value", raw.argument);
        return out;
      }
      cmd.kind = Cmd::Kind::enqueue;
      cmd.value = *v;
    } else {
      cmd.kind = Cmd::Kind::dequeue;
    }
    switch (raw.completion) {
      case Completion::ok: {
        Resp r;
        if (cmd.kind == Cmd::Kind::dequeue && !raw.result.is_null()) {
          r.value = as_int(raw.result);
          if (!r.value) {
            out.error = InputError{raw.complete_line,
                                   fmt::format("a dequeue's ok value must be an integer, or null "
                                               "for an empty queue, got {}",
                                               shown(raw.result))};
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

// --- output ------------------------------------------------------------------

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

  Checker(const Args& args, const RawHistory& history) : args_(args), history_(history) {}

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
    lin::Options options;
    options.budget = args_.budget;
    options.timeout =
        std::chrono::nanoseconds(static_cast<std::int64_t>(args_.timeout_seconds * 1e9));
    options.cache_bytes = args_.cache_mb << 20U;
    const auto start = std::chrono::steady_clock::now();
    result_ = lin::check_history(typename A::Spec{}, typename A::Model{}, ops_, options);
    seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    switch (result_.verdict) {
      case lin::Verdict::linearizable:
        print(out);
        return kLinearizable;
      case lin::Verdict::not_linearizable:
        print(out);
        return kNotLinearizable;
      case lin::Verdict::undecided:
        print(out);
        return kUndecided;
      case lin::Verdict::usage_error:
        fmt::print(err, "merilo-lincheck: {}: {}\n", args_.source, result_.error);
        return kBadInput;
      case lin::Verdict::crashed:
        fmt::print(err, "merilo-lincheck: internal error: {}\n", result_.error);
        return kInternalError;
    }
    return kInternalError;
  }

 private:
  const RawOp& raw(std::size_t op) const { return history_.ops[raw_of_[op]]; }

  std::string keys_text() const {
    const std::size_t keys = result_.partitions.size();
    if (keys == 1 && result_.partitions[0].empty()) return "";
    return fmt::format(", {} key{}", keys, keys == 1 ? "" : "s");
  }
  std::string key_of(const std::string& key) const {
    return key.empty() ? std::string() : fmt::format(" of key \"{}\"", key);
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

  void print(std::ostream& out) const {
    const auto& e = result_.explanation;
    const std::string steps = thousands(result_.evaluations);
    switch (result_.verdict) {
      case lin::Verdict::linearizable:
        fmt::print(out, "linearizable: {} operations ({} processes{}), {} steps, {:.2f} s\n",
                   ops_.size(), history_.processes, keys_text(), steps, seconds_);
        break;
      case lin::Verdict::not_linearizable: {
        const std::size_t stuck = *e.returned;
        fmt::print(out,
                   "not linearizable: no valid order{} gets past {} of its {} operations; it "
                   "gets stuck at the {} on line {} (process {}){}\n",
                   key_of(e.partition), e.prefix.size(), e.part_size,
                   lin::describe(ops_[stuck].command), raw(stuck).invoke_line, raw(stuck).process,
                   args_.explain ? "" : " (--explain shows why)");
        break;
      }
      case lin::Verdict::usage_error:
      case lin::Verdict::crashed:
        break;  // reported by run()
      case lin::Verdict::undecided:
        fmt::print(out,
                   "undecided: {} after placing {} of {} operations{}; this is not a pass "
                   "(raise --budget{}){}\n",
                   result_.stop == lin::Stop::timeout
                       ? fmt::format("the {:g} s timeout passed", args_.timeout_seconds)
                       : fmt::format("the budget of {} steps ran out", steps),
                   e.prefix.size(), e.part_size, key_of(e.partition),
                   result_.stop == lin::Stop::timeout ? " or --timeout" : "",
                   result_.cache_full ? "; the state cache filled up (raise --cache-mb)" : "");
        break;
    }
    if (args_.explain) explain(out);
  }

  void explain(std::ostream& out) const {
    const auto& e = result_.explanation;
    fmt::print(out, "\n  model    {}{}\n", A::kName,
               e.partition.empty() ? "" : fmt::format(", key \"{}\"", e.partition));
    fmt::print(out, "  history  {} operations from {} processes, {} events ({})\n", ops_.size(),
               history_.processes, history_.events,
               history_.timed ? "ordered by \"time\"" : "ordered by line");
    fmt::print(out, "  search   {} steps, {} states cached ({:.1f} MB{}), {:.2f} s\n",
               thousands(result_.evaluations), thousands(result_.cache_entries),
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
    const char* what = result_.verdict == lin::Verdict::not_linearizable
                           ? "The longest valid order places"
                           : "The longest partial order found places";
    fmt::print(out, "\n{} {} of the {} operations{}.", what, prefix.size(), e.part_size,
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
    typename A::Model model{};
    typename A::Spec spec{};
    for (const std::size_t op : prefix) model = spec.next_model(model, ops_[op].command);
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

  const Args& args_;
  const RawHistory& history_;
  std::vector<Op> ops_;
  std::vector<std::size_t> raw_of_;
  lin::HistoryResult<V> result_;
  double seconds_ = 0;
};

template <class A>
int run_model(const Args& args, std::istream& in, std::ostream& out, std::ostream& err) {
  RawHistory history;
  if (auto e = read_history(in, A::fs(), A::kName, history)) {
    fmt::print(err, "merilo-lincheck: {}: {}\n", args.source, e->text());
    return kBadInput;
  }
  return Checker<A>(args, history).run(out, err);
}

}  // namespace

bool known_model(const std::string& name) {
  return name == "register" || name == "kv" || name == "queue";
}

int run(const Args& args, std::istream& in, std::ostream& out, std::ostream& err) {
  try {
    if (args.model == "register") return run_model<RegisterAdapter>(args, in, out, err);
    if (args.model == "kv") return run_model<KvAdapter>(args, in, out, err);
    if (args.model == "queue") return run_model<QueueAdapter>(args, in, out, err);
    fmt::print(err, "merilo-lincheck: unknown model \"{}\" (expected register, kv or queue)\n",
               args.model);
    return kBadInput;
  } catch (const std::exception& e) {
    fmt::print(err, "merilo-lincheck: internal error: {}\n", e.what());
    return kInternalError;
  }
}

}  // namespace merilo::lincheck
