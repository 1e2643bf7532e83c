// event.cpp — Event from a JSON object, and the fast scanner of flat lines.
#include "event.hpp"

#include <cstdint>
#include <limits>
#include <string>

namespace merilo::lincheck {

using nlohmann::json;

std::optional<json>* Event::slot(std::string_view name) {
  if (name == "process") return &process;
  if (name == "type") return &type;
  if (name == "f") return &f;
  if (name == "value") return &value;
  if (name == "key") return &key;
  if (name == "time") return &time;
  if (name == "index") return &index;
  return nullptr;
}

Event event_of(const json& object) {
  Event e;
  for (const auto& [name, value] : object.items()) {
    if (auto* s = e.slot(name)) *s = value;
  }
  return e;
}

namespace {

// How deep arrays may nest on the fast path (deeper goes to the parser).
constexpr int kFastDepth = 8;

class Scanner {
 public:
  explicit Scanner(std::string_view text) : t_(text) {}

  std::optional<Event> object() {
    Event e;
    space();
    if (!eat('{')) return std::nullopt;
    space();
    if (eat('}')) return end(std::move(e));
    for (;;) {
      std::string_view name;
      space();
      if (!string(name)) return std::nullopt;
      space();
      if (!eat(':')) return std::nullopt;
      space();
      std::optional<json>* s = e.slot(name);
      if (s != nullptr) {
        if (s->has_value()) return std::nullopt;  // repeated: the parser's rule decides
        json v;
        if (!value(v, 0)) return std::nullopt;
        *s = std::move(v);
      } else {
        json ignored;
        if (!value(ignored, 0)) return std::nullopt;
      }
      space();
      if (eat(',')) continue;
      if (eat('}')) return end(std::move(e));
      return std::nullopt;
    }
  }

 private:
  std::optional<Event> end(Event e) {
    space();
    if (i_ != t_.size()) return std::nullopt;
    return e;
  }
  void space() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\r' || t_[i_] == '\n'))
      ++i_;
  }
  bool eat(char c) {
    if (i_ < t_.size() && t_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  // A string of printable ASCII without escapes.
  bool string(std::string_view& out) {
    if (!eat('"')) return false;
    const std::size_t start = i_;
    for (; i_ < t_.size(); ++i_) {
      const auto c = static_cast<unsigned char>(t_[i_]);
      if (c == '"') {
        out = t_.substr(start, i_ - start);
        ++i_;
        return true;
      }
      if (c == '\\' || c < 0x20 || c >= 0x80) return false;
    }
    return false;
  }
  bool literal(std::string_view word) {
    if (t_.substr(i_, word.size()) != word) return false;
    i_ += word.size();
    return true;
  }
  // An integer as nlohmann stores it: unsigned when not negative.
  bool integer(json& out) {
    const bool negative = eat('-');
    const std::size_t start = i_;
    std::uint64_t magnitude = 0;
    while (i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '9') {
      const auto d = static_cast<std::uint64_t>(t_[i_] - '0');
      if (magnitude > (std::numeric_limits<std::uint64_t>::max() - d) / 10) return false;
      magnitude = magnitude * 10 + d;
      ++i_;
    }
    const std::size_t digits = i_ - start;
    if (digits == 0 || (digits > 1 && t_[start] == '0')) return false;
    if (i_ < t_.size() && (t_[i_] == '.' || t_[i_] == 'e' || t_[i_] == 'E')) return false;
    if (!negative) {
      out = magnitude;
      return true;
    }
    if (magnitude > std::uint64_t{1} << 63U) return false;  // nlohmann makes it a double
    out = magnitude == std::uint64_t{1} << 63U ? std::numeric_limits<std::int64_t>::min()
                                               : -static_cast<std::int64_t>(magnitude);
    return true;
  }
  bool value(json& out, int depth) {
    if (i_ >= t_.size()) return false;
    const char c = t_[i_];
    if (c == '"') {
      std::string_view s;
      if (!string(s)) return false;
      out = std::string(s);
      return true;
    }
    if (c == 'n') {
      out = nullptr;
      return literal("null");
    }
    if (c == 't') {
      out = true;
      return literal("true");
    }
    if (c == 'f') {
      out = false;
      return literal("false");
    }
    if (c == '-' || (c >= '0' && c <= '9')) return integer(out);
    if (c != '[' || depth >= kFastDepth) return false;
    ++i_;
    out = json::array();
    space();
    if (eat(']')) return true;
    for (;;) {
      space();
      json item;
      if (!value(item, depth + 1)) return false;
      out.push_back(std::move(item));
      space();
      if (eat(',')) continue;
      return eat(']');
    }
  }

  std::string_view t_;
  std::size_t i_ = 0;
};

}  // namespace

std::optional<Event> scan_event(std::string_view line) { return Scanner(line).object(); }

}  // namespace merilo::lincheck
