// edn.cpp — the strict EDN reader: one recursive-descent pass over the
// text, positions tracked per character, every refusal naming where.
#include "edn.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <set>
#include <utility>

#include <fmt/format.h>

#include <merilo/core/text.hpp>

namespace merilo::lincheck::edn {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ','; }

// Ends a token: whitespace, a bracket, a string or a comment.
bool ends_token(char c) {
  return is_space(c) || c == '{' || c == '}' || c == '[' || c == ']' || c == '(' || c == ')' ||
         c == '"' || c == ';';
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// A character a keyword's name may hold (EDN's symbol characters).
bool keyword_char(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c)) return true;
  for (const char allowed : std::string_view(".*+!-_?$%&=<>/#':")) {
    if (c == allowed) return true;
  }
  return false;
}

// U+FEFF, the byte order mark, in UTF-8.
constexpr std::string_view kBom = "\xef\xbb\xbf";

// `text` safe to print (core::printable), and the byte order mark, which
// prints as nothing, written as its escape.
std::string visible(std::string_view text) {
  std::string out = core::printable(text);
  for (std::size_t at = out.find(kBom); at != std::string::npos; at = out.find(kBom, at)) {
    out.replace(at, kBom.size(), "\\ufeff");
  }
  return out;
}

// A token or character as messages quote it: escaped, cut to 40 bytes.
std::string backticked(std::string_view text) {
  constexpr std::size_t kMax = 40;
  const bool cut = text.size() > kMax;
  return fmt::format("`{}{}`", visible(cut ? core::utf8_prefix(text, kMax) : text), cut ? "…" : "");
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xc0 | (cp >> 6U));
    out += static_cast<char>(0x80 | (cp & 0x3fU));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | (cp >> 12U));
    out += static_cast<char>(0x80 | ((cp >> 6U) & 0x3fU));
    out += static_cast<char>(0x80 | (cp & 0x3fU));
  } else {
    out += static_cast<char>(0xf0 | (cp >> 18U));
    out += static_cast<char>(0x80 | ((cp >> 12U) & 0x3fU));
    out += static_cast<char>(0x80 | ((cp >> 6U) & 0x3fU));
    out += static_cast<char>(0x80 | (cp & 0x3fU));
  }
}

// Writes `v` as EDN into `out`, stopping once `out` passes `max` bytes.
void write(const Value& v, std::string& out, std::size_t max) {
  if (out.size() > max) return;
  switch (v.kind) {
    case Kind::nil:
      out += "nil";
      return;
    case Kind::boolean:
      out += v.boolean ? "true" : "false";
      return;
    case Kind::integer:
      out += std::to_string(v.integer);
      return;
    case Kind::string:
      out += core::quoted(v.text);
      return;
    case Kind::keyword:
      out += ":" + v.text;
      return;
    case Kind::vector:
    case Kind::list:
    case Kind::set:
    case Kind::map: {
      const char* open = v.kind == Kind::vector ? "["
                         : v.kind == Kind::list ? "("
                         : v.kind == Kind::set  ? "#{"
                                                : "{";
      const char* close = v.kind == Kind::vector ? "]" : v.kind == Kind::list ? ")" : "}";
      out += open;
      for (std::size_t i = 0; i < v.items.size() && out.size() <= max; ++i) {
        if (i > 0) out += (v.kind == Kind::map && i % 2 == 0) ? ", " : " ";
        write(v.items[i], out, max);
      }
      out += close;
      return;
    }
  }
}

}  // namespace

std::string Error::text() const {
  return fmt::format("line {}, column {}: {}", at.line, at.column, message);
}

const Value* Value::get(std::string_view keyword) const {
  for (std::size_t i = 0; i + 1 < items.size(); i += 2) {
    if (items[i].is_keyword(keyword)) return &items[i + 1];
  }
  return nullptr;
}

const char* kind_name(Kind kind) {
  switch (kind) {
    case Kind::nil:
      return "nil";
    case Kind::boolean:
      return "a boolean";
    case Kind::integer:
      return "an integer";
    case Kind::string:
      return "a string";
    case Kind::keyword:
      return "a keyword";
    case Kind::vector:
      return "a vector";
    case Kind::list:
      return "a list";
    case Kind::set:
      return "a set";
    case Kind::map:
      return "a map";
  }
  return "?";
}

std::string shown(const Value& v, std::size_t max) {
  std::string out;
  write(v, out, max);
  if (out.size() <= max) return out;
  return std::string(core::utf8_prefix(out, max)) + "…";
}

Error Parser::fail(Position at, std::string message) const { return Error{at, std::move(message)}; }

void Parser::take() {
  if (i_ >= text_.size()) return;
  if (text_[i_] == '\n') {
    ++at_.line;
    at_.column = 1;
  } else {
    ++at_.column;
  }
  ++i_;
}

std::optional<Error> Parser::skip_to_form(std::size_t depth) {
  while (i_ < text_.size()) {
    const char c = text_[i_];
    if (is_space(c)) {
      take();
    } else if (c == ';') {
      while (i_ < text_.size() && text_[i_] != '\n') take();
    } else if (c == '#' && i_ + 1 < text_.size() && text_[i_ + 1] == '_') {
      if (depth >= kMaxDepth) {
        return fail(at_, fmt::format("values nest deeper than {} levels", kMaxDepth));
      }
      take();
      take();
      if (auto e = discard(depth + 1)) return e;
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::optional<char> Parser::skip(std::optional<Error>& error) {
  error = skip_to_form(0);
  if (error || i_ >= text_.size()) return std::nullopt;
  return text_[i_];
}

std::optional<Error> Parser::discard(std::size_t depth) {
  const bool kept = keep_;
  keep_ = false;
  Value dropped;
  auto e = read(dropped, depth);
  keep_ = kept;
  return e;
}

std::optional<Error> Parser::form(Value& out, std::size_t max_bytes,
                                  bool (*wanted)(std::string_view)) {
  if (auto e = skip_to_form(0)) return e;
  // The form is read from a view cut one byte past the bound: a form that
  // reaches the cut is longer than the bound, whether it ends there or not.
  const std::string_view whole = text_;
  const std::size_t start = i_;
  const Position at = at_;
  const bool cut = max_bytes < whole.size() - start;
  if (cut) text_ = whole.substr(0, start + max_bytes + 1);
  wanted_ = wanted;
  auto e = read(out, 0);
  wanted_ = nullptr;
  const bool over = cut && i_ >= text_.size();
  text_ = whole;
  if (over) {
    out = Value{};
    Error too_long = fail(at, fmt::format("longer than {} bytes", max_bytes));
    too_long.too_long = true;
    return too_long;
  }
  return e;
}

std::optional<Error> Parser::read(Value& out, std::size_t depth) {
  if (auto e = skip_to_form(depth)) return e;
  if (i_ >= text_.size()) return fail(at_, "expected a value, found the end of the input");
  out = Value{};
  out.at = at_;
  const char c = text_[i_];
  switch (c) {
    case '{':
      return collection(out, Kind::map, '}', depth);
    case '[':
      return collection(out, Kind::vector, ']', depth);
    case '(':
      return collection(out, Kind::list, ')', depth);
    case '"':
      return string(out);
    case '#':
      return dispatch(out, depth);
    case '}':
    case ']':
    case ')':
      return fail(at_, fmt::format("unexpected {}: nothing is open here", backticked({&c, 1})));
    case '\\':
      return fail(at_, "characters (\\c) are not supported: write a string");
    case '^':
      return fail(at_, "metadata (^) is not supported");
    case '\'':
    case '`':
    case '~':
    case '@':
      return fail(at_, fmt::format("unexpected {}: not part of EDN", backticked({&c, 1})));
    default:
      return token(out);
  }
}

std::optional<Error> Parser::collection(Value& out, Kind kind, char close, std::size_t depth) {
  if (depth >= kMaxDepth) {
    return fail(at_, fmt::format("values nest deeper than {} levels", kMaxDepth));
  }
  const Position opened = at_;
  const std::string_view open_text = kind == Kind::set ? "#{" : text_.substr(i_, 1);
  out.kind = kind;
  if (kind == Kind::map) out.items.reserve(16);  // an event's fields, without regrowing
  take();
  std::size_t dropped_forms = 0;  // forms read but not kept (a discarded collection's)
  for (;;) {
    if (auto e = skip_to_form(depth + 1)) return e;
    if (i_ >= text_.size()) {
      return fail(opened, fmt::format("the {} opened here is never closed", backticked(open_text)));
    }
    const char c = text_[i_];
    if (c == close) {
      take();
      break;
    }
    if (c == '}' || c == ']' || c == ')') {
      return fail(at_, fmt::format("expected {} to close the {} on line {}, column {}, found {}",
                                   backticked({&close, 1}), backticked(open_text), opened.line,
                                   opened.column, backticked({&c, 1})));
    }
    if (!keep_) {
      Value dropped;
      if (auto e = read(dropped, depth + 1)) return e;
      ++dropped_forms;
      continue;
    }
    // The top map's value of a key nobody reads is checked, not kept.
    const bool value = kind == Kind::map && out.items.size() % 2 == 1;
    if (value && depth == 0 && wanted_ != nullptr &&
        !(out.items.back().kind == Kind::keyword && wanted_(out.items.back().text))) {
      out.items.emplace_back().at = at_;
      if (auto e = discard(depth + 1)) return e;
      continue;
    }
    out.items.emplace_back();
    if (auto e = read(out.items.back(), depth + 1)) return e;
  }
  const std::size_t forms = keep_ ? out.items.size() : dropped_forms;
  if (kind == Kind::map && forms % 2 != 0) {
    return fail(opened, fmt::format("this map has a key without a value ({} forms)", forms));
  }
  if (!keep_) return std::nullopt;
  if (kind == Kind::map || kind == Kind::set) return unique(out);
  return std::nullopt;
}

std::optional<Error> Parser::unique(const Value& out) const {
  // EDN forbids repeated map keys and set elements. An event map's keys
  // are a few keywords: compare those pairwise; anything else written out.
  const std::size_t step = out.kind == Kind::map ? 2 : 1;
  const std::size_t n = out.items.size() / step;
  auto repeated = [&](std::size_t i) {
    return fail(out.items[i].at,
                fmt::format("{} {} appears twice in this {}",
                            out.kind == Kind::map ? "the key" : "the element",
                            shown(out.items[i], 40), out.kind == Kind::map ? "map" : "set"));
  };
  bool keywords = n <= 16;
  for (std::size_t i = 0; keywords && i < out.items.size(); i += step) {
    keywords = out.items[i].kind == Kind::keyword;
  }
  if (keywords) {
    for (std::size_t i = step; i < out.items.size(); i += step) {
      for (std::size_t j = 0; j < i; j += step) {
        if (out.items[i].text == out.items[j].text) return repeated(i);
      }
    }
    return std::nullopt;
  }
  std::set<std::string> seen;
  for (std::size_t i = 0; i < out.items.size(); i += step) {
    std::string written;
    write(out.items[i], written, std::numeric_limits<std::size_t>::max());
    if (!seen.insert(std::move(written)).second) return repeated(i);
  }
  return std::nullopt;
}

std::optional<Error> Parser::string(Value& out) {
  const Position opened = at_;
  out.kind = Kind::string;
  take();
  for (;;) {
    if (i_ >= text_.size()) return fail(opened, "the string opened here is never closed");
    const char c = text_[i_];
    if (c == '"') {
      take();
      return std::nullopt;
    }
    if (c != '\\') {
      if (keep_) out.text += c;
      take();
      continue;
    }
    const Position escape = at_;
    take();
    if (i_ >= text_.size()) return fail(opened, "the string opened here is never closed");
    const char e = text_[i_];
    take();
    switch (e) {
      case 't':
        out.text += '\t';
        break;
      case 'n':
        out.text += '\n';
        break;
      case 'r':
        out.text += '\r';
        break;
      case 'b':
        out.text += '\b';
        break;
      case 'f':
        out.text += '\f';
        break;
      case '"':
      case '\\':
        out.text += e;
        break;
      case 'u': {
        auto hex4 = [&](std::uint32_t& cp) {
          cp = 0;
          for (int k = 0; k < 4; ++k) {
            if (i_ >= text_.size()) return false;
            const char h = text_[i_];
            std::uint32_t d = 0;
            if (is_digit(h)) {
              d = static_cast<std::uint32_t>(h - '0');
            } else if (h >= 'a' && h <= 'f') {
              d = static_cast<std::uint32_t>(h - 'a' + 10);
            } else if (h >= 'A' && h <= 'F') {
              d = static_cast<std::uint32_t>(h - 'A' + 10);
            } else {
              return false;
            }
            cp = cp * 16 + d;
            take();
          }
          return true;
        };
        std::uint32_t cp = 0;
        if (!hex4(cp)) return fail(escape, "\\u needs four hexadecimal digits");
        if (cp >= 0xdc00 && cp <= 0xdfff) {
          return fail(escape, "\\u escape is a lone low surrogate");
        }
        if (cp >= 0xd800 && cp <= 0xdbff) {
          std::uint32_t low = 0;
          if (text_.substr(i_, 2) != "\\u") {
            return fail(escape, "\\u escape is a high surrogate without its low half");
          }
          take();
          take();
          if (!hex4(low) || low < 0xdc00 || low > 0xdfff) {
            return fail(escape, "\\u escape is a high surrogate without its low half");
          }
          cp = 0x10000 + ((cp - 0xd800) << 10U) + (low - 0xdc00);
        }
        append_utf8(out.text, cp);
        break;
      }
      default:
        return fail(escape,
                    fmt::format("unknown escape \\{} in a string", core::printable({&e, 1})));
    }
  }
}

std::optional<Error> Parser::token(Value& out) {
  const std::size_t start = i_;
  while (i_ < text_.size() && !ends_token(text_[i_])) take();
  const std::string_view t = text_.substr(start, i_ - start);
  if (t.front() == ':') {
    const std::string_view name = t.substr(1);
    if (name.empty()) return fail(out.at, "a keyword needs a name after its colon");
    if (name.front() == ':') {
      return fail(out.at, fmt::format("auto-resolved keywords ({}) are not EDN", backticked(t)));
    }
    for (const char c : name) {
      if (!keyword_char(c)) {
        return fail(out.at, fmt::format("{} is not a keyword: {} cannot be part of one",
                                        backticked(t), backticked({&c, 1})));
      }
    }
    out.kind = Kind::keyword;
    out.text = name;
    return std::nullopt;
  }
  if (t == "nil") return std::nullopt;
  if (t == "true" || t == "false") {
    out.kind = Kind::boolean;
    out.boolean = t == "true";
    return std::nullopt;
  }
  const bool sign = t.front() == '-' || t.front() == '+';
  if (is_digit(t.front()) || (sign && t.size() > 1 && is_digit(t[1]))) {
    std::string_view digits = t.substr(sign ? 1 : 0);
    if (digits.back() == 'N') digits.remove_suffix(1);  // a bigint that may still fit
    for (const char c : digits) {
      if (!is_digit(c)) {
        return fail(out.at, fmt::format("{} is not an integer: only integers are supported "
                                        "(no floats, ratios or radix numbers)",
                                        backticked(t)));
      }
    }
    if (digits.empty()) return fail(out.at, fmt::format("{} is not an integer", backticked(t)));
    if (digits.size() > 1 && digits.front() == '0') {
      return fail(out.at,
                  fmt::format("{} has a leading zero, which EDN does not allow", backticked(t)));
    }
    const bool negative = t.front() == '-';
    // Accumulate as a magnitude in uint64 and check against int64's bounds.
    const std::uint64_t limit =
        negative ? std::uint64_t{1} << 63U
                 : static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    std::uint64_t magnitude = 0;
    for (const char c : digits) {
      const auto d = static_cast<std::uint64_t>(c - '0');
      if (magnitude > (limit - d) / 10) {
        return fail(out.at, fmt::format("the integer {} does not fit in 64 bits", backticked(t)));
      }
      magnitude = magnitude * 10 + d;
    }
    out.kind = Kind::integer;
    out.integer =
        negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
    return std::nullopt;
  }
  if (t.empty()) return fail(out.at, "unexpected character");
  return fail(out.at, fmt::format("unexpected symbol {} (a history holds nil, true, false, "
                                  "integers, strings, keywords and collections)",
                                  backticked(t)));
}

std::optional<Error> Parser::dispatch(Value& out, std::size_t depth) {
  if (i_ + 1 < text_.size() && text_[i_ + 1] == '{') {
    take();  // '#'; collection() takes the '{'
    return collection(out, Kind::set, '}', depth);
  }
  const std::size_t start = i_ + 1;
  std::size_t end = start;
  while (end < text_.size() && !ends_token(text_[end])) ++end;
  const std::string_view tag = text_.substr(start, end - start);
  if (tag.empty() || !(std::isalpha(static_cast<unsigned char>(tag.front())) != 0)) {
    const std::string_view shown_text =
        text_.substr(i_, std::min<std::size_t>(2, text_.size() - i_));
    return fail(out.at,
                fmt::format("{} is not part of the EDN histories use", backticked(shown_text)));
  }
  if (tag.starts_with("jepsen")) {
    return fail(out.at,
                fmt::format("the tagged literal #{} is not supported: write each operation as a "
                            "plain map ({{:process 0, :type :invoke, :f :read, :value nil}}), "
                            "as history.edn holds it",
                            core::printable(core::utf8_prefix(tag, 60))));
  }
  return fail(out.at, fmt::format("the tagged literal #{} is not supported (no #inst, #uuid or "
                                  "other tags in a history)",
                                  core::printable(core::utf8_prefix(tag, 60))));
}

}  // namespace merilo::lincheck::edn
