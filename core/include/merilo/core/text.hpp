// merilo/core/text.hpp — user text made safe to print on a terminal.
//
// Reports and tools print text that came from users' systems: a key-value
// store's values, a history file's keys, a command's description. Raw,
// such text can drive the terminal that shows it: ESC sequences set the
// window title, clear the screen or plant links, BEL rings, CR and
// newlines forge whole output lines, bidirectional overrides reorder what
// is shown. `printable` writes every such character as an escape and
// passes all other text, UTF-8 included, through; `quoted` also quotes;
// `utf8_prefix` cuts long text without splitting a character;
// `utf8_valid_length` finds where text stops being UTF-8.
//
// Example:
//
//   merilo::core::quoted("ok\x1b]0;pwned\a");  // "\"ok\\x1b]0;pwned\\x07\""
//   merilo::core::utf8_prefix("h\xc3\xa9llo", 2);  // "h": é is 2 bytes and would not fit
//
// NOTE: the escapes are `\n`, `\r`, `\t`, `\xNN` for other C0 control bytes,
// DEL and bytes that are not valid UTF-8, and `\uNNNN` for the C1 controls
// (U+0080–U+009F) and the bidirectional controls (U+061C, U+200E, U+200F,
// U+202A–U+202E, U+2066–U+2069). A backslash is left alone by `printable`
// (its output is for reading, not parsing back) and escaped by `quoted`.
#ifndef MERILO_CORE_TEXT_HPP
#define MERILO_CORE_TEXT_HPP

#include <cstddef>      // std::size_t
#include <string>       // results
#include <string_view>  // arguments

namespace merilo::core {

/// `text` with every character a terminal could act on written as an
/// escape (see the NOTE above); everything else as it was.
[[nodiscard]] std::string printable(std::string_view text);

/// `text` in double quotes, `"` and `\` escaped, the rest as `printable`.
[[nodiscard]] std::string quoted(std::string_view text);

/// The longest prefix of `text` that is at most `max` bytes long and does
/// not end inside a UTF-8 sequence.
[[nodiscard]] std::string_view utf8_prefix(std::string_view text, std::size_t max) noexcept;

/// The length of the longest prefix of `text` that is valid UTF-8: the
/// offset of the first byte that starts no valid sequence (an overlong
/// form, a surrogate or a code point past U+10FFFF included), or
/// `text.size()` when all of it is UTF-8.
[[nodiscard]] std::size_t utf8_valid_length(std::string_view text) noexcept;

}  // namespace merilo::core

#endif  // MERILO_CORE_TEXT_HPP
