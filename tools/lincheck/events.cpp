// events.cpp — one event's fields checked, invokes paired with completions.
#include "events.hpp"

#include <limits>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace merilo::lincheck {

namespace {

using nlohmann::json;

std::string one_of(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += names[i];
  }
  return out;
}

}  // namespace

std::string EventReader::name(const char* field) const {
  return syntax_ == Syntax::json ? fmt::format("\"{}\"", field) : fmt::format(":{}", field);
}

std::optional<InputError> EventReader::fail(std::string message) const {
  return InputError{line_, std::move(message), column_};
}

std::optional<InputError> EventReader::event(std::size_t line, std::size_t column, Event event) {
  line_ = line;
  column_ = column;
  if (syntax_ == Syntax::edn) {
    // An EDN history may hold every event on one line (pr-str writes it
    // so): each event is its own position, after every earlier one.
    ++position_;
    if (position_ > 1 && line == last_line_) out_.shared_lines = true;
    last_line_ = line;
    out_.order = Order::position;
  }
  // Jepsen's nemesis (fault injection) events are not client operations.
  if (event.process && event.process->is_string() && *event.process == "nemesis") {
    return std::nullopt;
  }
  std::uint64_t process = 0;
  std::string type;
  std::string f;
  if (auto e = field_process(event, process)) return e;
  if (auto e = field_type(event, type)) return e;
  if (auto e = field_f(event, f)) return e;
  auto instant = syntax_ == Syntax::edn ? position_ : static_cast<std::int64_t>(line);
  if (auto e = field_time(event, instant)) return e;
  if (out_.timed) out_.order = Order::time;
  if (auto e = field_index(event)) return e;
  std::optional<std::string> key;
  json value = event.value ? std::move(*event.value) : json();
  if (auto e = field_key(event, key, value)) return e;
  ++out_.events;
  if (type == "invoke") return invoke(process, f, std::move(value), std::move(key), instant);
  return complete(process, type, f, std::move(value), key, instant);
}

bool EventReader::flat_event(std::size_t line, FlatEvent& event, std::optional<InputError>& error) {
  // What `event` checks first (process, type, f) must pass as it stands,
  // and the key must not need splitting; then the rest is what `event` does.
  if (syntax_ != Syntax::json || options_.independent) return false;
  const std::string_view type = event.type;
  if (type != "invoke" && type != "ok" && type != "fail" && type != "info") return false;
  bool known = false;
  for (const auto& f : options_.fs) known = known || event.f == f;
  if (!known) return false;
  line_ = line;
  column_ = 0;
  auto instant = static_cast<std::int64_t>(line);
  error = time_present(event.time.has_value());
  if (!error && event.time) error = time_value(*event.time, instant);
  if (error) return true;
  if (out_.timed) out_.order = Order::time;
  ++out_.events;
  error =
      type == "invoke"
          ? invoke(event.process, event.f, std::move(event.value), std::move(event.key), instant)
          : complete(event.process, type, event.f, std::move(event.value), event.key, instant);
  return true;
}

std::optional<InputError> EventReader::finish() {
  if (out_.events == 0) {
    return InputError{0, syntax_ == Syntax::json
                             ? "the history is empty: no events (expected one JSON object per line)"
                             : "the history is empty: no events (expected maps such as "
                               "{:process 0, :type :invoke, :f :read, :value nil})"};
  }
  out_.processes = processes_.size();
  return std::nullopt;
}

std::optional<InputError> EventReader::field_process(const Event& event,
                                                     std::uint64_t& process) const {
  const auto& p = event.process;
  if (!p) return fail(fmt::format("missing {}", name("process")));
  if (!p->is_number_integer() || (!p->is_number_unsigned() && p->get<std::int64_t>() < 0)) {
    return fail(fmt::format("{} must be a non-negative integer (or {}), got {}", name("process"),
                            syntax_ == Syntax::json ? "\"nemesis\"" : ":nemesis", shown(*p)));
  }
  process = p->get<std::uint64_t>();
  return std::nullopt;
}

std::optional<InputError> EventReader::field_type(const Event& event, std::string& type) const {
  const auto& t = event.type;
  if (!t) return fail(fmt::format("missing {}", name("type")));
  if (!t->is_string()) {
    return fail(fmt::format("{} must be a {}, got {}", name("type"),
                            syntax_ == Syntax::json ? "string" : "keyword", shown(*t)));
  }
  type = t->get<std::string>();
  if (type != "invoke" && type != "ok" && type != "fail" && type != "info") {
    return fail(fmt::format("unknown type {} (expected invoke, ok, fail or info)", shown(*t)));
  }
  return std::nullopt;
}

std::optional<InputError> EventReader::field_f(const Event& event, std::string& f) const {
  const auto& it = event.f;
  if (!it) return fail(fmt::format("missing {}", name("f")));
  if (!it->is_string()) {
    return fail(fmt::format("{} must be a {}, got {}", name("f"),
                            syntax_ == Syntax::json ? "string" : "keyword", shown(*it)));
  }
  f = it->get<std::string>();
  for (const auto& known : options_.fs) {
    if (f == known) return std::nullopt;
  }
  return fail(fmt::format("unknown f {} for the {} model (expected {})", shown(*it), options_.model,
                          one_of(options_.fs)));
}

std::optional<InputError> EventReader::field_time(const Event& event, std::int64_t& instant) {
  const auto& t = event.time;
  if (auto e = time_present(t.has_value())) return e;
  if (!t) return std::nullopt;
  if (!t->is_number_integer() ||
      (t->is_number_unsigned() &&
       t->get<std::uint64_t>() >
           static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))) {
    return fail(
        fmt::format("{} must be an integer (nanoseconds), got {}", name("time"), shown(*t)));
  }
  return time_value(t->get<std::int64_t>(), instant);
}

// Every event has a "time" or none does (the first event decides).
std::optional<InputError> EventReader::time_present(bool has) {
  if (line_index_ == 0) out_.timed = has;
  ++line_index_;
  if (has != out_.timed) {
    return fail(fmt::format("has {} {} but line {} has {}: use it on every event or on none",
                            has ? "a" : "no", name("time"), first_line_, has ? "none" : "one"));
  }
  if (line_index_ == 1) first_line_ = line_;
  return std::nullopt;
}

// A "time" in range: instants never go back.
std::optional<InputError> EventReader::time_value(std::int64_t time, std::int64_t& instant) {
  instant = time;
  if (last_time_ && instant < *last_time_) {
    return fail(
        fmt::format("time {} is earlier than the previous event's {} (events must be in "
                    "real-time order)",
                    instant, *last_time_));
  }
  last_time_ = instant;
  return std::nullopt;
}

// Jepsen numbers events with "index"; it is read only to refuse a wrong one.
std::optional<InputError> EventReader::field_index(const Event& event) const {
  const auto& i = event.index;
  if (!i || i->is_number_unsigned()) return std::nullopt;
  if (i->is_number_integer() && i->get<std::int64_t>() >= 0) return std::nullopt;
  return fail(fmt::format("{} must be a non-negative integer, got {}", name("index"), shown(*i)));
}

// The key as JSON text: "1" (a string) and 1 (an integer) are different
// keys, and each is shown as it was written. A jepsen.independent tuple
// [key value] in "value" gives the key and leaves the value.
std::optional<InputError> EventReader::field_key(const Event& event,
                                                 std::optional<std::string>& key,
                                                 json& value) const {
  const auto& k = event.key;
  const bool has_key = k && !k->is_null();
  const json* found = has_key ? &*k : nullptr;
  if (options_.independent) {
    if (has_key) {
      return fail(
          fmt::format("has a {} field, but --independent takes the key from {} [key "
                      "value]",
                      name("key"), name("value")));
    }
    if (!value.is_array() || value.size() != 2) {
      return fail(fmt::format("--independent needs every {} to be a [key value] tuple, got {}",
                              name("value"), shown(value)));
    }
    json inner = value[1];
    json k_value = value[0];
    value = std::move(inner);
    if (!k_value.is_string() && !k_value.is_number_integer()) {
      return fail(
          fmt::format("the key of a [key value] tuple must be a string, keyword or "
                      "integer, got {}",
                      shown(k_value)));
    }
    key = k_value.dump();
    return std::nullopt;
  }
  if (found == nullptr) return std::nullopt;
  if (found->is_string() || found->is_number_integer()) {
    key = found->dump();
    return std::nullopt;
  }
  return fail(fmt::format("{} must be a string or an integer, got {}", name("key"), shown(*found)));
}

std::optional<InputError> EventReader::invoke(std::uint64_t process, std::string_view f, json value,
                                              std::optional<std::string> key,
                                              std::int64_t instant) {
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
  op.argument = std::move(value);
  op.key = std::move(key);
  op.invoked_at = instant;
  op.invoke_line = line_;
  op.invoke_column = column_;
  out_.ops.push_back(std::move(op));
  return std::nullopt;
}

std::optional<InputError> EventReader::complete(std::uint64_t process, std::string_view type,
                                                std::string_view f, json value,
                                                const std::optional<std::string>& key,
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
  // A completion repeats its invoke's key or leaves it out.
  if (key && key != op.key) {
    return fail(fmt::format("{} has key {} but process {} invoked {} on line {}", type,
                            clipped(*key, kMaxShown), process,
                            op.key ? "with key " + clipped(*op.key, kMaxShown) : "without a key",
                            op.invoke_line));
  }
  p.open.reset();
  op.complete_line = line_;
  op.complete_column = column_;
  op.returned_at = instant;
  if (type == "ok") {
    op.completion = Completion::ok;
    op.result = std::move(value);
  } else if (type == "fail") {
    op.completion = Completion::fail;
  } else {
    op.completion = Completion::info;
    p.ended_line = line_;
  }
  return std::nullopt;
}

}  // namespace merilo::lincheck
