// history_file.cpp — the JSON Lines reader: parse each line, check its
// fields, pair invokes with completions per process.
#include "history_file.hpp"

#include <limits>
#include <map>
#include <utility>

#include <fmt/format.h>

namespace merilo::lincheck {

namespace {

using nlohmann::json;

struct Process {
  std::optional<std::size_t> open;        // index into ops of its open operation
  std::optional<std::size_t> ended_line;  // the line of its info completion
};

std::string one_of(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += names[i];
  }
  return out;
}

std::string shown(const json& v) {
  std::string s = v.dump();
  constexpr std::size_t kMax = 40;
  if (s.size() > kMax) s = s.substr(0, kMax) + "…";
  return s;
}

class Reader {
 public:
  Reader(const std::vector<std::string>& fs, std::string model, RawHistory& out)
      : fs_(fs), model_(std::move(model)), out_(out) {}

  std::optional<InputError> line(std::size_t number, const std::string& text) {
    line_ = number;
    if (text.find_first_not_of(" \t\r") == std::string::npos) return std::nullopt;
    json event;
    try {
      event = json::parse(text);
    } catch (const json::parse_error& e) {
      return fail(fmt::format("malformed JSON ({})", short_reason(e)));
    }
    if (!event.is_object()) return fail("expected a JSON object, one event per line");
    // Jepsen's nemesis (fault injection) events are not client operations.
    if (auto p = event.find("process"); p != event.end() && p->is_string() && *p == "nemesis") {
      return std::nullopt;
    }
    std::uint64_t process = 0;
    std::string type;
    std::string f;
    if (auto e = field_process(event, process)) return e;
    if (auto e = field_type(event, type)) return e;
    if (auto e = field_f(event, f)) return e;
    std::int64_t instant = static_cast<std::int64_t>(number);
    if (auto e = field_time(event, instant)) return e;
    std::optional<std::string> key;
    if (auto e = field_key(event, key)) return e;
    ++out_.events;
    const json value = event.contains("value") ? event["value"] : json();
    if (type == "invoke") return invoke(process, f, value, key, instant);
    return complete(process, type, f, value, instant);
  }

  std::optional<InputError> finish() {
    if (out_.events == 0) {
      return InputError{0, "the history is empty: no events (expected one JSON object per line)"};
    }
    out_.processes = processes_.size();
    return std::nullopt;
  }

 private:
  static std::string short_reason(const json::parse_error& e) {
    // nlohmann's message reads "[json.exception.parse_error.101] parse error at line 1,
    // column 5: syntax error while parsing value - invalid literal; last read: 'tru'";
    // keep what follows the last ": " of its prefix.
    std::string what = e.what();
    const auto at = what.find("parse error at");
    if (at != std::string::npos) what = what.substr(at);
    return what;
  }

  std::optional<InputError> fail(std::string message) const {
    return InputError{line_, std::move(message)};
  }

  std::optional<InputError> field_process(const json& event, std::uint64_t& process) const {
    const auto p = event.find("process");
    if (p == event.end()) return fail("missing \"process\"");
    if (!p->is_number_integer() ||
        (p->is_number_integer() && !p->is_number_unsigned() && p->get<std::int64_t>() < 0)) {
      return fail(fmt::format("\"process\" must be a non-negative integer (or \"nemesis\"), got {}",
                              shown(*p)));
    }
    process = p->get<std::uint64_t>();
    return std::nullopt;
  }

  std::optional<InputError> field_type(const json& event, std::string& type) const {
    const auto t = event.find("type");
    if (t == event.end()) return fail("missing \"type\"");
    if (!t->is_string()) return fail(fmt::format("\"type\" must be a string, got {}", shown(*t)));
    type = t->get<std::string>();
    if (type != "invoke" && type != "ok" && type != "fail" && type != "info") {
      return fail(fmt::format("unknown type \"{}\" (expected invoke, ok, fail or info)", type));
    }
    return std::nullopt;
  }

  std::optional<InputError> field_f(const json& event, std::string& f) const {
    const auto it = event.find("f");
    if (it == event.end()) return fail("missing \"f\"");
    if (!it->is_string()) return fail(fmt::format("\"f\" must be a string, got {}", shown(*it)));
    f = it->get<std::string>();
    for (const auto& known : fs_) {
      if (f == known) return std::nullopt;
    }
    return fail(
        fmt::format("unknown f \"{}\" for the {} model (expected {})", f, model_, one_of(fs_)));
  }

  std::optional<InputError> field_time(const json& event, std::int64_t& instant) {
    const auto t = event.find("time");
    const bool has = t != event.end();
    if (line_index_ == 0) out_.timed = has;
    ++line_index_;
    if (has != out_.timed) {
      return fail(has ? fmt::format("has a \"time\" but line {} has none: use it on every line "
                                    "or on none",
                                    first_line_)
                      : fmt::format("has no \"time\" but line {} has one: use it on every line "
                                    "or on none",
                                    first_line_));
    }
    if (line_index_ == 1) first_line_ = line_;
    if (!has) return std::nullopt;
    if (!t->is_number_integer() ||
        (t->is_number_unsigned() &&
         t->get<std::uint64_t>() >
             static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))) {
      return fail(fmt::format("\"time\" must be an integer (nanoseconds), got {}", shown(*t)));
    }
    instant = t->get<std::int64_t>();
    if (last_time_ && instant < *last_time_) {
      return fail(
          fmt::format("time {} is earlier than the previous event's {} (lines must be in "
                      "real-time order)",
                      instant, *last_time_));
    }
    last_time_ = instant;
    return std::nullopt;
  }

  std::optional<InputError> field_key(const json& event, std::optional<std::string>& key) const {
    const auto k = event.find("key");
    if (k == event.end() || k->is_null()) return std::nullopt;
    if (k->is_string()) {
      key = k->get<std::string>();
    } else if (k->is_number_integer()) {
      key = k->dump();
    } else {
      return fail(fmt::format("\"key\" must be a string or an integer, got {}", shown(*k)));
    }
    return std::nullopt;
  }

  std::optional<InputError> invoke(std::uint64_t process, const std::string& f, const json& value,
                                   const std::optional<std::string>& key, std::int64_t instant) {
    Process& p = processes_[process];
    if (p.ended_line) {
      return fail(
          fmt::format("process {} invokes again after its info on line {}: an info "
                      "operation may still take effect, so Jepsen gives the next "
                      "operation a new process number",
                      process, *p.ended_line));
    }
    if (p.open) {
      const RawOp& o = out_.ops[*p.open];
      return fail(
          fmt::format("process {} invokes {} while its {} from line {} is still open "
                      "(one operation at a time per process)",
                      process, f, o.f, o.invoke_line));
    }
    p.open = out_.ops.size();
    RawOp op;
    op.process = process;
    op.f = f;
    op.argument = value;
    op.key = key;
    op.invoked_at = instant;
    op.invoke_line = line_;
    out_.ops.push_back(std::move(op));
    return std::nullopt;
  }

  std::optional<InputError> complete(std::uint64_t process, const std::string& type,
                                     const std::string& f, const json& value,
                                     std::int64_t instant) {
    auto it = processes_.find(process);
    if (it == processes_.end() || !it->second.open) {
      return fail(fmt::format("{} for process {} without an invoke", type, process));
    }
    Process& p = it->second;
    RawOp& op = out_.ops[*p.open];
    if (op.f != f) {
      return fail(fmt::format("{} has f \"{}\" but process {} invoked \"{}\" on line {}", type, f,
                              process, op.f, op.invoke_line));
    }
    p.open.reset();
    op.complete_line = line_;
    op.returned_at = instant;
    if (type == "ok") {
      op.completion = Completion::ok;
      op.result = value;
    } else if (type == "fail") {
      op.completion = Completion::fail;
    } else {
      op.completion = Completion::info;
      p.ended_line = line_;
    }
    return std::nullopt;
  }

  const std::vector<std::string>& fs_;
  std::string model_;
  RawHistory& out_;
  std::map<std::uint64_t, Process> processes_;
  std::size_t line_ = 0;
  std::size_t line_index_ = 0;
  std::size_t first_line_ = 0;
  std::optional<std::int64_t> last_time_;
};

}  // namespace

std::string InputError::text() const {
  if (line == 0) return message;
  return fmt::format("line {}: {}", line, message);
}

std::optional<InputError> read_history(std::istream& in, const std::vector<std::string>& fs,
                                       const std::string& model, RawHistory& out) {
  Reader reader(fs, model, out);
  std::string text;
  std::size_t number = 0;
  while (std::getline(in, text)) {
    ++number;
    if (auto e = reader.line(number, text)) return e;
  }
  if (in.bad()) return InputError{0, "could not read the input"};
  return reader.finish();
}

}  // namespace merilo::lincheck
