// history_file.cpp — the JSON Lines reader: parse each line, check its
// fields, pair invokes with completions per process.
#include "history_file.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <streambuf>
#include <utility>

#include <fmt/format.h>

#include <merilo/core/text.hpp>

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

// How deep `[` and `{` may nest in one line: values are copied and printed
// recursively, so a deeper one could overflow the stack.
constexpr std::size_t kMaxDepth = 64;

// The depth the brackets of `text` reach outside strings, stopping once it
// passes kMaxDepth (the text need not be valid JSON).
std::size_t nesting(const std::string& text) {
  std::size_t depth = 0;
  std::size_t deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size() && deepest <= kMaxDepth; ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

}  // namespace

std::string clipped(std::string text, std::size_t max) {
  if (text.size() <= max) return core::printable(text);
  return core::printable(core::utf8_prefix(text, max)) + "…";
}

std::string shown(const json& v) { return clipped(v.dump(), kMaxShown); }

namespace {

class Reader {
 public:
  Reader(const std::vector<std::string>& fs, std::string model, RawHistory& out)
      : fs_(fs), model_(std::move(model)), out_(out) {}

  std::optional<InputError> line(std::size_t number, const std::string& text) {
    line_ = number;
    if (text.find_first_not_of(" \t\r") == std::string::npos) return std::nullopt;
    if (nesting(text) > kMaxDepth) {
      return fail(fmt::format("values nest deeper than {} levels of [ and {{", kMaxDepth));
    }
    json event;
    try {
      event = json::parse(text);
    } catch (const json::parse_error& e) {
      return fail(fmt::format("malformed JSON ({})", short_reason(e)));
    } catch (const json::exception& e) {  // a number too large for a double: 1e400
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
    return complete(process, type, f, value, key, instant);
  }

  std::optional<InputError> finish() {
    if (out_.events == 0) {
      return InputError{0, "the history is empty: no events (expected one JSON object per line)"};
    }
    out_.processes = processes_.size();
    return std::nullopt;
  }

 private:
  static std::string short_reason(const json::exception& e) {
    // nlohmann's message reads "[json.exception.parse_error.101] parse error at line 1,
    // column 5: syntax error while parsing value - invalid literal; last read: 'tru'";
    // drop the bracketed id, and cut what it echoes of the input.
    std::string what = e.what();
    if (const auto at = what.find("] "); what.starts_with("[json.") && at != std::string::npos) {
      what = what.substr(at + 2);
    }
    return clipped(std::move(what), kMaxShown);
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
      return fail(fmt::format("unknown type {} (expected invoke, ok, fail or info)", shown(*t)));
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
    return fail(fmt::format("unknown f {} for the {} model (expected {})", shown(*it), model_,
                            one_of(fs_)));
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

  // The key as JSON text: "1" (a string) and 1 (an integer) are different
  // keys, and each is shown as it was written.
  std::optional<InputError> field_key(const json& event, std::optional<std::string>& key) const {
    const auto k = event.find("key");
    if (k == event.end() || k->is_null()) return std::nullopt;
    if (k->is_string() || k->is_number_integer()) {
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
                                     const std::optional<std::string>& key, std::int64_t instant) {
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
    // A completion repeats its invoke's key or leaves it out.
    if (key && key != op.key) {
      return fail(fmt::format("{} has key {} but process {} invoked {} on line {}", type,
                              clipped(*key, kMaxShown), process,
                              op.key ? "with key " + clipped(*op.key, kMaxShown) : "without a key",
                              op.invoke_line));
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

std::optional<InputError> read_history(std::istream& in, const ReadOptions& options,
                                       RawHistory& out) {
  Reader reader(options.fs, options.model, out);
  std::string text;
  std::size_t number = 0;
  for (;;) {
    // Reads one line, never holding more than max_line_bytes of it.
    text.clear();
    bool any = false;
    bool too_long = false;
    std::streambuf* buf = in.rdbuf();
    for (;;) {
      const int c = buf->sbumpc();
      if (c == std::char_traits<char>::eof()) break;
      any = true;
      if (c == '\n') break;
      if (text.size() == options.max_line_bytes) {
        too_long = true;
        break;
      }
      text.push_back(static_cast<char>(c));
    }
    if (!any) break;
    ++number;
    if (too_long) {
      return InputError{number,
                        fmt::format("longer than {} bytes (raise --max-line-bytes if it is meant "
                                    "to be)",
                                    options.max_line_bytes)};
    }
    if (auto e = reader.line(number, text)) return e;
  }
  return reader.finish();
}

}  // namespace merilo::lincheck
