// history_file.hpp — reads a Jepsen-style history, JSON Lines or EDN, into
// operations: invokes paired with their completions per process, every rule
// of the format checked with an error naming the line (events.hpp pairs
// them; history_file.cpp reads JSON Lines, edn_history.cpp EDN).
#ifndef MERILO_TOOLS_LINCHECK_HISTORY_FILE_HPP
#define MERILO_TOOLS_LINCHECK_HISTORY_FILE_HPP

#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace merilo::lincheck {

/// How an operation ended.
enum class Completion : std::uint8_t {
  ok,       ///< Took effect; its value is the result.
  fail,     ///< Took no effect (unless the model says otherwise).
  info,     ///< Unknown: may take effect at any time after its invoke.
  missing,  ///< The history ended before it completed: as info.
};

/// One operation: an invoke and (maybe) its completion.
struct RawOp {
  std::uint64_t process = 0;
  std::string f;
  nlohmann::json argument;  ///< The invoke's value (null when absent).
  nlohmann::json result;    ///< The ok completion's value (null otherwise).
  /// The key as JSON text (`"x"`, `1`): keys of different JSON types differ.
  std::optional<std::string> key;
  Completion completion = Completion::missing;
  std::int64_t invoked_at = 0;
  std::int64_t returned_at = 0;  ///< Meaningful for ok and fail.
  std::size_t invoke_line = 0;
  std::size_t complete_line = 0;    ///< 0 when missing.
  std::size_t invoke_column = 0;    ///< EDN: the invoke map's column (0 in JSON Lines).
  std::size_t complete_column = 0;  ///< EDN: the completion map's column (0 otherwise).
};

/// What a history's completions and empty results mean (docs/lincheck.md,
/// "Two meanings").
enum class Meaning : std::uint8_t {
  /// JSON Lines' documented reading: a failed cas says the register did not
  /// hold the expected value; a null read or get read an empty register or
  /// key; a null dequeue or remove found the container empty.
  merilo,
  /// Jepsen's and Knossos's reading: every fail took no effect and is left
  /// out (a cas too); a read or get whose ok value is nil is an unknown read
  /// and constrains nothing; an ok dequeue or remove of nil is bad input.
  jepsen,
};

/// How a history's events are ordered in real time when it has no "time".
enum class Order : std::uint8_t {
  line,      ///< JSON Lines: each line happened before every later line.
  position,  ///< EDN: each event happened before every later event in the file.
  time,      ///< "time" fields: instants in nanoseconds, equal times overlap.
};

/// A history file, read.
struct RawHistory {
  std::vector<RawOp> ops;  ///< In invoke order.
  std::size_t processes = 0;
  std::size_t events = 0;
  bool timed = false;  ///< Instants come from "time" fields, not line numbers.
  /// Without "time": instants are line numbers (JSON Lines) or positions in
  /// the file, 1 for the first event, 2 for the next... (EDN).
  Order order = Order::line;
  /// EDN: two events share a line, so lines alone do not give the order.
  bool shared_lines = false;
  /// How completions read (set by the caller after reading; the readers
  /// leave it).
  Meaning meaning = Meaning::merilo;
};

/// A problem with the input, and where.
struct InputError {
  std::size_t line = 0;    ///< 0 when it concerns the whole input.
  std::string message;     ///< What is wrong, without the place.
  std::size_t column = 0;  ///< EDN: the column too (0: the line says enough).
  /// "line L: message", "line L, column C: message" or the message alone.
  [[nodiscard]] std::string text() const;
};

/// The longest line read by default (1 MiB).
inline constexpr std::size_t kDefaultMaxLineBytes = std::size_t{1} << 20U;

/// How much of a bad value an error message echoes, in bytes.
inline constexpr std::size_t kMaxShown = 80;

/// What `read_history` and `read_edn_history` accept.
struct ReadOptions {
  std::vector<std::string> fs;  ///< The f names the model knows (for "unknown f").
  std::string model;            ///< The model's name, for messages.
  std::size_t max_line_bytes = kDefaultMaxLineBytes;  ///< A longer line is an error.
  /// Every value is a jepsen.independent tuple `[key value]`: the key goes
  /// to the operation's key and the value is the rest.
  bool independent = false;
  /// Read flat lines through `scan_flat_event` (event.hpp). Only tests turn
  /// it off, to show the result is the same either way.
  bool fast_lines = true;
};

/// Reads `in`. On a bad line returns the first error, naming the line. A
/// line longer than `options.max_line_bytes` is an error read no further,
/// and brackets nested deeper than 64 levels are refused before parsing,
/// so any input costs memory in proportion to the history it holds.
[[nodiscard]] std::optional<InputError> read_history(std::istream& in, const ReadOptions& options,
                                                     RawHistory& out);

/// Reads `in` as EDN (edn.hpp): one map per event, either one after
/// another (history.edn, usually one per line) or all inside one vector or
/// list (Knossos's test data). Keywords read as strings (`:invoke` is
/// "invoke"), `:process :nemesis` events are skipped as in JSON Lines,
/// and every error names a line and column.
[[nodiscard]] std::optional<InputError> read_edn_history(std::istream& in,
                                                         const ReadOptions& options,
                                                         RawHistory& out);

/// `text` made safe to print: cut to at most `max` bytes (on a UTF-8
/// boundary) plus "…", its control characters escaped (core::printable).
[[nodiscard]] std::string clipped(const std::string& text, std::size_t max);

/// `v` as JSON, cut to kMaxShown bytes: how messages echo a bad value.
[[nodiscard]] std::string shown(const nlohmann::json& v);

}  // namespace merilo::lincheck

#endif  // MERILO_TOOLS_LINCHECK_HISTORY_FILE_HPP
