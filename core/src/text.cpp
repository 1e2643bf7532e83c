// text.cpp — escaping control characters, cutting and checking UTF-8 text (text.hpp).
#include <merilo/core/text.hpp>

#include <array>
#include <cstdint>
#include <cstdio>

namespace merilo::core {

namespace {

/// The length of the valid UTF-8 sequence at the start of `s` and its code
/// point, or 0 when the first byte does not start one.
std::size_t decode(std::string_view s, std::uint32_t& code) noexcept {
  const auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(s[i]); };
  const std::uint8_t b0 = byte(0);
  std::size_t n = 0;
  std::uint32_t min = 0;
  if (b0 < 0x80U) {
    code = b0;
    return 1;
  }
  if ((b0 & 0xE0U) == 0xC0U) {
    n = 2, min = 0x80U, code = b0 & 0x1FU;
  } else if ((b0 & 0xF0U) == 0xE0U) {
    n = 3, min = 0x800U, code = b0 & 0x0FU;
  } else if ((b0 & 0xF8U) == 0xF0U) {
    n = 4, min = 0x10000U, code = b0 & 0x07U;
  } else {
    return 0;
  }
  if (s.size() < n) return 0;
  for (std::size_t i = 1; i < n; ++i) {
    if ((byte(i) & 0xC0U) != 0x80U) return 0;
    code = (code << 6U) | (byte(i) & 0x3FU);
  }
  // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
  if (code < min || (code >= 0xD800U && code <= 0xDFFFU) || code > 0x10FFFFU) return 0;
  return n;
}

bool controls_the_terminal(std::uint32_t code) noexcept {
  return (code >= 0x80U && code <= 0x9FU) || code == 0x061CU || code == 0x200EU ||
         code == 0x200FU || (code >= 0x202AU && code <= 0x202EU) ||
         (code >= 0x2066U && code <= 0x2069U);
}

void escape_into(std::string& out, std::string_view text, bool quoting) {
  std::array<char, 16> buf{};
  while (!text.empty()) {
    std::uint32_t code = 0;
    const std::size_t n = decode(text, code);
    if (n == 0) {  // not UTF-8: show the byte
      std::snprintf(buf.data(), buf.size(), "\\x%02x",
                    static_cast<unsigned>(static_cast<std::uint8_t>(text[0])));
      out += buf.data();
      text.remove_prefix(1);
      continue;
    }
    if (code == '\n') {
      out += "\\n";
    } else if (code == '\r') {
      out += "\\r";
    } else if (code == '\t') {
      out += "\\t";
    } else if (code < 0x20U || code == 0x7FU) {
      std::snprintf(buf.data(), buf.size(), "\\x%02x", static_cast<unsigned>(code));
      out += buf.data();
    } else if (controls_the_terminal(code)) {
      std::snprintf(buf.data(), buf.size(), "\\u%04x", static_cast<unsigned>(code));
      out += buf.data();
    } else if (quoting && (code == '"' || code == '\\')) {
      out += '\\';
      out += static_cast<char>(code);
    } else {
      out.append(text.data(), n);
    }
    text.remove_prefix(n);
  }
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  escape_into(out, text, false);
  return out;
}

std::string quoted(std::string_view text) {
  std::string out = "\"";
  out.reserve(text.size() + 2);
  escape_into(out, text, true);
  return out + "\"";
}

std::string_view utf8_prefix(std::string_view text, std::size_t max) noexcept {
  if (text.size() <= max) return text;
  const auto inside = [&](std::size_t at) {
    return (static_cast<std::uint8_t>(text[at]) & 0xC0U) == 0x80U;
  };
  // A sequence is at most 4 bytes: past 3 continuation bytes there is none
  // to keep whole (the text is not UTF-8 there), so cut at `max`.
  std::size_t cut = max;
  for (int back = 0; back < 3 && cut > 0 && inside(cut); ++back) --cut;
  if (inside(cut)) cut = max;
  return text.substr(0, cut);
}

std::size_t utf8_valid_length(std::string_view text) noexcept {
  std::size_t at = 0;
  while (at < text.size()) {
    std::uint32_t code = 0;
    const std::size_t n = decode(text.substr(at), code);
    if (n == 0) break;
    at += n;
  }
  return at;
}

}  // namespace merilo::core
