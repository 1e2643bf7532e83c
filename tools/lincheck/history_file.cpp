// history_file.cpp — the JSON Lines reader: cut the input into lines, parse
// each as one event for EventReader (events.hpp).
#include "history_file.hpp"

#include "events.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <streambuf>
#include <string_view>
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
std::size_t nesting(std::string_view text) {
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

std::string clipped(const std::string& text, std::size_t max) {
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
  return clipped(what, kMaxShown);
}

// One line of JSON Lines: blank, or one event.
std::optional<InputError> line(EventReader& reader, std::size_t number, std::string_view text,
                               bool fast_lines) {
  if (text.find_first_not_of(" \t\r") == std::string_view::npos) return std::nullopt;
  auto fail = [&](std::string message) { return InputError{number, std::move(message)}; };
  if (fast_lines) {
    FlatEvent plain;
    std::optional<InputError> error;
    if (scan_flat_event(text, plain) && reader.flat_event(number, plain, error)) return error;
  }
  if (std::optional<Event> flat = scan_event(text))
    return reader.event(number, 0, std::move(*flat));
  if (nesting(text) > kMaxDepth) {
    return fail(fmt::format("values nest deeper than {} levels of [ and {{", kMaxDepth));
  }
  json event;
  try {
    event = json::parse(text.begin(), text.end());
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
  // Read in blocks and cut lines with memchr (a loop over sbumpc cost more
  // than parsing); `text` never holds more than one line of at most
  // max_line_bytes plus one block.
  constexpr std::size_t kBlock = std::size_t{64} << 10U;
  std::string text;
  std::unique_ptr<char[]> block;  // NOLINT(modernize-avoid-c-arrays): uninitialized bytes
  std::size_t start = 0;          // where the current line begins in `text`
  std::size_t number = 0;
  std::streambuf* buf = in.rdbuf();
  auto too_long = [&] {
    return InputError{number + 1,
                      fmt::format("longer than {} bytes (raise --max-line-bytes if it is meant "
                                  "to be)",
                                  options.max_line_bytes)};
  };
  bool eof = false;
  while (!eof || start < text.size()) {
    const char* from = text.data() + start;
    // A counted search: no terminator is read or written.
    // NOLINTNEXTLINE(bugprone-not-null-terminated-result)
    const auto* nl = static_cast<const char*>(std::memchr(from, '\n', text.size() - start));
    if (nl == nullptr && !eof) {
      if (text.size() - start > options.max_line_bytes) return too_long();
      text.erase(0, start);
      start = 0;
      // Read into a block of its own and append what came: growing `text`
      // first would zero 64 KiB for every file, a tenth of a small file's cost.
      if (!block) block = std::make_unique_for_overwrite<char[]>(kBlock);
      const std::streamsize got =
          buf == nullptr ? 0 : buf->sgetn(block.get(), static_cast<std::streamsize>(kBlock));
      text.append(block.get(), static_cast<std::size_t>(std::max<std::streamsize>(got, 0)));
      eof = got <= 0;
      continue;
    }
    const std::size_t end =
        nl != nullptr ? static_cast<std::size_t>(nl - text.data()) : text.size();
    if (end - start > options.max_line_bytes) return too_long();
    ++number;
    if (auto e = line(reader, number, std::string_view(text).substr(start, end - start),
                      options.fast_lines))
      return e;
    start = nl != nullptr ? end + 1 : end;
  }
  return reader.finish();
}

}  // namespace merilo::lincheck
