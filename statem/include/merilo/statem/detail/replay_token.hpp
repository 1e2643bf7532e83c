// merilo/statem/detail/replay_token.hpp — the replay token a report ends
// with, and the environment overrides (MERILO_STATEM_SEED,
// MERILO_STATEM_REPLAY), parsed and printed by non-template code compiled
// once (statem/src/replay_token.cpp). Included by statem.hpp; not meant to
// be included alone.
//
// A token names a shrunk list by how to rebuild it from its run: the run's
// seed, index, size and length bound (so the run's list is drawn again
// exactly), then for every command of the shrunk list the index of the
// original command it came from and the path of child indices down that
// command's shrink tree, and last a check: 16 hex digits of a hash of the
// shrunk list's described commands. Text form (shell-safe, no quoting
// needed):
//
//   v2:<seed hex>:<run>:<size>:<bound>:<item>,<item>,...:<check hex>
//   item = <index>[.<child>.<child>...]
//
// e.g. `v2:2a:17:36:18:0,3.1.0,9:5d0c9e1f3a7b2c64` (an empty list has no
// items). The check is what makes a cut or edited token a usage error
// instead of a shorter list that passes: the rebuilt list must describe
// exactly as the list the token was made from. v1 tokens had no check and
// are refused.
#ifndef MERILO_STATEM_DETAIL_REPLAY_TOKEN_HPP
#define MERILO_STATEM_DETAIL_REPLAY_TOKEN_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace merilo::statem::detail {

/// One command of a shrunk list: its original index and its path of child
/// indices down that command's shrink tree.
struct Origin {
  std::size_t index = 0;
  std::vector<std::uint32_t> path;
  friend bool operator==(const Origin&, const Origin&) = default;
};

/// A parsed replay token.
struct ReplayToken {
  std::uint64_t seed = 0;
  std::size_t run = 0;
  std::uint64_t size = 0;
  std::size_t bound = 0;
  std::vector<Origin> items;
  std::uint64_t check = 0;  ///< `list_check` of the shrunk list's descriptions.
};

/// The check of a list whose commands describe as `described`.
[[nodiscard]] std::uint64_t list_check(const std::vector<std::string>& described) noexcept;

/// The text of `token`.
[[nodiscard]] std::string format_token(const ReplayToken& token);

/// Parses `text` into `out`; returns a usage error naming the problem, or "".
/// A bound above `max_commands` (the replaying check's) is refused before
/// anything is drawn, and so is an item list that could not come from a
/// list of that bound (more items than commands, indices not increasing).
[[nodiscard]] std::string parse_token(std::string_view text, std::size_t max_commands,
                                      ReplayToken& out);

/// What the environment overrides: `MERILO_STATEM_SEED` and
/// `MERILO_STATEM_REPLAY`, or a usage error when one is malformed.
struct Environment {
  std::optional<std::uint64_t> seed;
  std::string replay;
  std::string error;
};

/// Reads the environment (each call reads it again).
[[nodiscard]] Environment environment();

/// The usage error of a token whose items do not fit the run it names.
[[nodiscard]] std::string token_mismatch(std::string_view token, std::string_view why);

}  // namespace merilo::statem::detail

#endif  // MERILO_STATEM_DETAIL_REPLAY_TOKEN_HPP
