// history_file.cpp — the JSON Lines reader: cut the input into lines, parse
// each as one event for EventReader (events.hpp).
#include "history_file.hpp"

#include "events.hpp"

#include <algorithm>
#include <streambuf>
#include <utility>

#include <fmt/format.h>

#include <merilo/core/text.hpp>

namespace merilo::lincheck {

namespace {

using nlohmann::json;

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

// nlohmann's message reads "[json.exception.parse_error.101] parse error at line 1,
// column 5: syntax error while parsing value - invalid literal; last read: 'tru'";
// drop the bracketed id, and cut what it echoes of the input.
std::string short_reason(const json::exception& e) {
  std::string what = e.what();
  if (const auto at = what.find("] "); what.starts_with("[json.") && at != std::string::npos) {
    what = what.substr(at + 2);
  }
  return clipped(std::move(what), kMaxShown);
}

// One line of JSON Lines: blank, or one event.
std::optional<InputError> line(EventReader& reader, std::size_t number, const std::string& text) {
  if (text.find_first_not_of(" \t\r") == std::string::npos) return std::nullopt;
  auto fail = [&](std::string message) { return InputError{number, std::move(message)}; };
  if (std::optional<Event> flat = scan_event(text)) return reader.event(number, 0, std::move(*flat));
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
  return reader.event(number, 0, event_of(event));
}

}  // namespace

std::string InputError::text() const {
  if (line == 0) return message;
  if (column > 0) return fmt::format("line {}, column {}: {}", line, column, message);
  return fmt::format("line {}: {}", line, message);
}

std::optional<InputError> read_history(std::istream& in, const ReadOptions& options,
                                       RawHistory& out) {
  EventReader reader(options, Syntax::json, out);
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
    if (auto e = line(reader, number, text)) return e;
  }
  return reader.finish();
}

}  // namespace merilo::lincheck
