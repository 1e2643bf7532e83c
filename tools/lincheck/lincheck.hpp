// lincheck.hpp — merilo-lincheck's work, apart from flag parsing: read a
// history, check it against a built-in model, print the verdict.
#ifndef MERILO_TOOLS_LINCHECK_LINCHECK_HPP
#define MERILO_TOOLS_LINCHECK_LINCHECK_HPP

#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <ostream>
#include <string>

namespace merilo::lincheck {

/// The exit codes (documented in docs/lincheck.md).
enum Exit : int {
  kLinearizable = 0,
  kNotLinearizable = 1,
  kUndecided = 2,
  kBadInput = 3,
  kInternalError = 4,
};

/// What the command line asked for.
struct Args {
  std::string model;                  ///< register, kv, queue or bag.
  std::uint64_t budget = 10'000'000;  ///< Search steps (model evaluations).
  double timeout_seconds = 0;         ///< 0 = none.
  /// The state cache's memory cap. 64-bit on every target, so a value too
  /// large for this machine's address space reaches the range check (which
  /// names the range) instead of failing to parse.
  std::uint64_t cache_mb = 512;
  std::size_t max_line_bytes = std::size_t{1} << 20U;  ///< A longer line is bad input.
  bool explain = false;
  /// "jsonl", "edn", or "auto": EDN when `input` ends in ".edn".
  std::string format = "auto";
  /// The register model's value before any write (null when unset).
  std::optional<std::int64_t> initial;
  /// Values are jepsen.independent [key value] tuples (history_file.hpp).
  bool independent = false;
  /// "merilo", "jepsen", or "auto": Jepsen's meaning for EDN, merilo's for
  /// JSON Lines (history_file.hpp, `Meaning`).
  std::string meaning = "auto";
  std::string html;          ///< Where to write the HTML report ("" = none).
  std::string source = "-";  ///< The file's name, for messages ("-" = stdin).
  /// The history's path, so that --html never overwrites it: "-" for
  /// standard input, "" when there is no file to compare with.
  std::string input;
};

/// The longest --timeout, in seconds (about 31 years): its nanoseconds fit
/// an int64.
inline constexpr double kMaxTimeoutSeconds = 1e9;

/// Whether `name` is one of the models merilo-lincheck knows.
[[nodiscard]] bool known_model(const std::string& name);

/// The models' names joined: model_names(", ", " or ") is
/// "register, kv, queue or bag", model_names("|", "|") is "register|kv|queue|bag".
[[nodiscard]] std::string model_names(const char* separator, const char* last);

/// What is wrong with `args` ("" when nothing): an unknown model, a zero
/// budget, a timeout that is not a number from 0 to kMaxTimeoutSeconds, a
/// cache too large to count in bytes, an unknown format or meaning,
/// --initial for a model other than the register.
[[nodiscard]] std::string check_args(const Args& args);

/// Checks `args`, reads the history from `in`, checks it, writes the
/// verdict to `out` (and, with `args.html`, the HTML report to that file)
/// and problems with the input to `err`; returns the exit code. A report
/// that cannot be written is bad input (exit 3): a path that is a
/// directory, not a regular file, the history itself or not writable is
/// refused before the history is read; the report is written to a
/// temporary file renamed over the path at the end, so a failed write
/// (a full disk) leaves the path as it was. Never throws.
[[nodiscard]] int run(const Args& args, std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace merilo::lincheck

#endif  // MERILO_TOOLS_LINCHECK_LINCHECK_HPP
