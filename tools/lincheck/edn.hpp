// edn.hpp — a small, strict reader of the EDN that Jepsen and Knossos
// histories are written in: nil, true/false, integers, strings, keywords,
// vectors, lists, sets and maps, `;` comments, commas as whitespace and the
// `#_` discard. Anything else (floats, ratios, characters, symbols, tagged
// literals such as `#jepsen.history.Op{...}` or `#inst`) is refused with an
// error naming its line and column, so no history is read half right.
//
// Example:
//
//   edn::Parser p("{:type :invoke, :f :write, :value 3, :process 0}");
//   edn::Value v;
//   if (auto e = p.form(v)) std::cerr << e->text();   // "line 1, column 5: ..."
//   // v.kind == edn::Kind::map, v.items = {:type, :invoke, :f, :write, ...}
//
// NOTE: brackets nest at most kMaxDepth levels (a deeper value is refused
// before it can exhaust the stack), and the text is read in place: a Parser
// holds a view of it, which must outlive the Parser. A discarded form (`#_`)
// and an unwanted map value (see Parser::form) are checked for syntax but
// not kept; their sets and maps are not checked for repeated elements.
#ifndef MERILO_TOOLS_LINCHECK_EDN_HPP
#define MERILO_TOOLS_LINCHECK_EDN_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace merilo::lincheck::edn {

/// Where a form starts: 1-based line and column (columns count bytes).
struct Position {
  std::size_t line = 1;    ///< 1-based.
  std::size_t column = 1;  ///< 1-based, in bytes.
};

/// What is wrong with the text, and where.
struct Error {
  Position at;          ///< Where the problem is.
  std::string message;  ///< What it is, without the position.
  /// The form ran past the byte bound given to Parser::form (`at` is its
  /// first character); what it would have been is unknown.
  bool too_long = false;
  /// "line L, column C: message".
  [[nodiscard]] std::string text() const;
};

/// The kinds of value the reader accepts.
enum class Kind : std::uint8_t { nil, boolean, integer, string, keyword, vector, list, set, map };

/// One EDN value and where it starts.
struct Value {
  Kind kind = Kind::nil;     ///< What it is.
  Position at;               ///< Where it starts.
  bool boolean = false;      ///< Kind::boolean: the value.
  std::int64_t integer = 0;  ///< Kind::integer: the value.
  /// Kind::string: the decoded text (UTF-8); Kind::keyword: the name without
  /// its colon (`:jepsen/op` is "jepsen/op").
  std::string text;
  /// vector, list, set: the elements in order; map: key, value, key, value…
  std::vector<Value> items;

  /// A map's value for the keyword `:name`, or null when it has none.
  [[nodiscard]] const Value* get(std::string_view keyword) const;
  /// Whether this is the keyword `:name`.
  [[nodiscard]] bool is_keyword(std::string_view name) const {
    return kind == Kind::keyword && text == name;
  }
};

/// How deep vectors, lists, sets and maps may nest.
inline constexpr std::size_t kMaxDepth = 64;

/// The kind's name as messages say it ("a map", "an integer", ...).
[[nodiscard]] const char* kind_name(Kind kind);

/// `v` written back as EDN, cut to about `max` bytes ("…" marks the cut):
/// how messages echo a value.
[[nodiscard]] std::string shown(const Value& v, std::size_t max);

/// Reads forms one at a time from a text held elsewhere.
class Parser {
 public:
  /// Reads `text`, which must outlive the parser.
  explicit Parser(std::string_view text) : text_(text) {}

  /// Skips whitespace, commas, comments and `#_` discarded forms; returns
  /// the next character (or nothing at the end). An error in a discarded
  /// form is returned through `error`.
  [[nodiscard]] std::optional<char> skip(std::optional<Error>& error);
  /// Where the next character is.
  [[nodiscard]] Position position() const { return at_; }
  /// Consumes one character (the one skip() returned).
  void take();
  /// Reads one form into `out`; at the end of the text that is an error.
  /// A form longer than `max_bytes` (from its first character to its last)
  /// is an error with `too_long` set, found once the reader passes the
  /// bound, so a long form costs no memory beyond it. When `wanted` is
  /// given and the form is a map, the value of a key that is not one of
  /// the keywords `wanted` names is checked but not kept (it reads as nil),
  /// so fields nobody reads build no tree.
  [[nodiscard]] std::optional<Error> form(Value& out, std::size_t max_bytes = SIZE_MAX,
                                          bool (*wanted)(std::string_view) = nullptr);

 private:
  std::optional<Error> read(Value& out, std::size_t depth);
  std::optional<Error> collection(Value& out, Kind kind, char close, std::size_t depth);
  std::optional<Error> string(Value& out);
  std::optional<Error> unique(const Value& out) const;
  std::optional<Error> token(Value& out);
  std::optional<Error> dispatch(Value& out, std::size_t depth);
  std::optional<Error> skip_to_form(std::size_t depth);
  [[nodiscard]] Error fail(Position at, std::string message) const;

  std::optional<Error> discard(std::size_t depth);

  std::string_view text_;
  std::size_t i_ = 0;
  Position at_;
  /// False while a discarded form is read: collections keep no elements
  /// and strings no text, so memory stays in proportion to the nesting.
  bool keep_ = true;
  /// The top form's map keys whose values are kept (null: all).
  bool (*wanted_)(std::string_view) = nullptr;
};

}  // namespace merilo::lincheck::edn

#endif  // MERILO_TOOLS_LINCHECK_EDN_HPP
