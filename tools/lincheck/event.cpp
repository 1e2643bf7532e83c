// event.cpp — Event from a JSON object, and the fast scanner of flat lines.
#include "event.hpp"

#include <charconv>
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

  // The flat object of `scan_flat_event`, into `e`.
  bool flat(FlatEvent& e) {
    // Bits of the fields seen: process, type, f, value, key, time, index.
    unsigned seen = 0;
    auto once = [&seen](unsigned bit) {
      if ((seen & bit) != 0) return false;  // repeated: the parser's rule decides
      seen |= bit;
      return true;
    };
    space();
    if (!eat('{')) return false;
    space();
    if (!eat('}')) {
      for (;;) {
        std::string_view name;
        space();
        if (!string(name)) return false;
        space();
        if (!eat(':')) return false;
        space();
        if (!field(name, e, once)) return false;
        space();
        if (eat(',')) continue;
        if (eat('}')) break;
        return false;
      }
    }
    space();
    // process, type and f are required; without them the rules' messages apply.
    return i_ == t_.size() && (seen & 7U) == 7U;
  }

 private:
  template <class Once>
  bool field(std::string_view name, FlatEvent& e, Once& once) {
    bool negative = false;
    std::uint64_t magnitude = 0;
    if (name == "process") {
      // A non-negative integer written without a sign (-0 goes the long way).
      if (!once(1U) || i_ >= t_.size() || t_[i_] == '-') return false;
      if (!number(negative, magnitude)) return false;
      e.process = magnitude;
      return true;
    }
    if (name == "type") return once(2U) && string(e.type);
    if (name == "f") return once(4U) && string(e.f);
    if (name == "value") return once(8U) && value(e.value, 0);
    if (name == "key") {
      if (!once(16U)) return false;
      if (i_ < t_.size() && t_[i_] == '"') {
        // Printable ASCII without quotes or backslashes (string() takes no
        // others): its JSON text is the text between the quotes, quoted.
        std::string_view s;
        if (!string(s) || s.find('\x7f') != std::string_view::npos) return false;
        e.key.emplace();
        e.key->reserve(s.size() + 2);
        *e.key += '"';
        *e.key += s;
        *e.key += '"';
        return true;
      }
      if (i_ < t_.size() && t_[i_] == 'n') return literal("null");  // a null key is no key
      std::int64_t signed_value = 0;
      if (!number(negative, magnitude)) return false;
      char digits[24];
      std::to_chars_result r{};
      if (!negative) {
        r = std::to_chars(digits, digits + sizeof digits, magnitude);
      } else if (signed_of(magnitude, signed_value)) {
        r = std::to_chars(digits, digits + sizeof digits, signed_value);
      } else {
        return false;  // below int64: a double to the parser
      }
      e.key = std::string(digits, r.ptr);
      return true;
    }
    if (name == "time") {
      // An integer that fits int64 (the rules refuse any other).
      std::int64_t t = 0;
      if (!once(32U) || !number(negative, magnitude)) return false;
      if (!negative) {
        if (magnitude > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
          return false;
        t = static_cast<std::int64_t>(magnitude);
      } else if (!signed_of(magnitude, t)) {
        return false;
      }
      e.time = t;
      return true;
    }
    if (name == "index") {
      // A non-negative integer (-0 is 0).
      return once(64U) && number(negative, magnitude) && (!negative || magnitude == 0);
    }
    json ignored;
    return value(ignored, 0);  // a field no rule reads: only its syntax matters
  }

  // -magnitude as int64, when it fits (as nlohmann stores a negative integer).
  static bool signed_of(std::uint64_t magnitude, std::int64_t& out) {
    if (magnitude > std::uint64_t{1} << 63U) return false;
    out = magnitude == std::uint64_t{1} << 63U ? std::numeric_limits<std::int64_t>::min()
                                               : -static_cast<std::int64_t>(magnitude);
    return true;
  }

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
  // An integer's sign and magnitude: false when there are no digits, a
  // leading zero, more than 64 bits, or a fraction or exponent after them
  // (all of which the parser reads its own way).
  bool number(bool& negative, std::uint64_t& magnitude) {
    negative = eat('-');
    const std::size_t start = i_;
    magnitude = 0;
    while (i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '9') {
      const auto d = static_cast<std::uint64_t>(t_[i_] - '0');
      if (magnitude > (std::numeric_limits<std::uint64_t>::max() - d) / 10) return false;
      magnitude = magnitude * 10 + d;
      ++i_;
    }
    const std::size_t digits = i_ - start;
    if (digits == 0 || (digits > 1 && t_[start] == '0')) return false;
    return i_ >= t_.size() || (t_[i_] != '.' && t_[i_] != 'e' && t_[i_] != 'E');
  }
  // An integer as nlohmann stores it: unsigned when not negative.
  bool integer(json& out) {
    bool negative = false;
    std::uint64_t magnitude = 0;
    if (!number(negative, magnitude)) return false;
    if (!negative) {
      out = magnitude;
      return true;
    }
    std::int64_t v = 0;
    if (!signed_of(magnitude, v)) return false;  // nlohmann makes it a double
    out = v;
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

bool scan_flat_event(std::string_view line, FlatEvent& out) {
  // Field by field: assigning a whole FlatEvent{} zeroed it with a `rep
  // stos`, a tenth of the scan of a short line.
  out.process = 0;
  out.type = {};
  out.f = {};
  out.time.reset();
  out.key.reset();
  out.value = nullptr;
  return Scanner(line).flat(out);
}

}  // namespace merilo::lincheck
