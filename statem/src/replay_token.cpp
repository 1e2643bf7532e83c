// replay_token.cpp — replay tokens to and from text, and the environment
// overrides of a check's seed and replay token.
#include <cerrno>
#include <charconv>
#include <cstdlib>

#include <fmt/format.h>

#include <merilo/core/hash.hpp>
#include <merilo/core/text.hpp>  // the token as given, printable in messages
#include <merilo/statem/statem.hpp>

namespace merilo::statem::detail {

namespace {

/// Splits `text` at `sep` (an empty text gives no parts).
std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> out;
  if (text.empty()) return out;
  for (;;) {
    const std::size_t at = text.find(sep);
    out.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return out;
    text.remove_prefix(at + 1);
  }
}

template <class N>
bool number(std::string_view text, N& out, int base = 10) {
  if (text.empty()) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out, base);
  return ec == std::errc{} && end == text.data() + text.size();
}

}  // namespace

std::uint64_t list_check(const std::vector<std::string>& described) noexcept {
  // Each description with its length first, so no two lists run together.
  std::uint64_t h = core::hash64(nullptr, 0, described.size());
  for (const std::string& d : described) {
    const std::uint64_t n = d.size();
    h = core::hash64(&n, sizeof n, h);
    h = core::hash64(d.data(), d.size(), h);
  }
  return h;
}

std::string format_token(const ReplayToken& token) {
  std::string out =
      fmt::format("v2:{:x}:{}:{}:{}:", token.seed, token.run, token.size, token.bound);
  for (std::size_t i = 0; i < token.items.size(); ++i) {
    if (i > 0) out += ',';
    out += fmt::format("{}", token.items[i].index);
    for (std::uint32_t c : token.items[i].path) out += fmt::format(".{}", c);
  }
  out += fmt::format(":{:016x}", token.check);
  return out;
}

std::string parse_token(std::string_view text, std::size_t max_commands, ReplayToken& out) {
  const auto bad = [text](std::string_view why) {
    return fmt::format(
        "merilo::statem: the replay token {} is malformed: {}; paste the whole token from "
        "the report's last line",
        core::quoted(text), why);
  };
  const std::vector<std::string_view> parts = split(text, ':');
  if (!parts.empty() && parts[0] == "v1") {
    return bad(
        "v1 tokens carry no check of the list they name (a cut one passes silently), so they "
        "are refused; run the check again for a v2 token");
  }
  if (parts.size() != 7 || parts[0] != "v2")
    return bad("expected v2:<seed>:<run>:<size>:<bound>:<items>:<check> (was it cut short?)");
  ReplayToken t;
  if (!number(parts[1], t.seed, 16)) return bad("the seed is not a hex number");
  if (!number(parts[2], t.run)) return bad("the run is not a number");
  if (!number(parts[3], t.size) || t.size > kMaxSize) return bad("the size is not in [0, 100]");
  // Read as 64 bits whatever size_t's width, so a bound past a 32-bit
  // size_t is named as too large rather than as not a number.
  std::uint64_t bound = 0;
  if (!number(parts[4], bound) || bound == 0)
    return bad("the length bound is not a positive number");
  if (bound > max_commands) {
    return fmt::format(
        "merilo::statem: the replay token {} names a list of up to {} commands, more than "
        "this check's CheckOptions::max_commands ({}); replay it with the max_commands of the "
        "check that reported it",
        core::quoted(text), bound, max_commands);
  }
  t.bound = static_cast<std::size_t>(bound);
  if (parts[6].size() != 16 || !number(parts[6], t.check, 16))
    return bad("the check is not 16 hex digits (was the token cut short?)");
  for (std::string_view item : split(parts[5], ',')) {
    const std::vector<std::string_view> steps = split(item, '.');
    Origin o;
    if (steps.empty() || !number(steps[0], o.index)) return bad("a command index is not a number");
    if (o.index >= t.bound) return bad("a command index is past the length bound");
    if (!t.items.empty() && o.index <= t.items.back().index)
      return bad("the command indices do not increase");
    for (std::size_t i = 1; i < steps.size(); ++i) {
      std::uint32_t c = 0;
      if (!number(steps[i], c)) return bad("a child index is not a number");
      o.path.push_back(c);
    }
    t.items.push_back(std::move(o));
  }
  out = std::move(t);
  return "";
}

Environment environment() {
  Environment env;
  if (const char* seed = std::getenv("MERILO_STATEM_SEED"); seed != nullptr && *seed != '\0') {
    std::string_view text = seed;
    std::uint64_t value = 0;
    const bool hex = text.starts_with("0x") || text.starts_with("0X");
    if (hex) text.remove_prefix(2);
    if (number(text, value, hex ? 16 : 10)) {
      env.seed = value;
    } else {
      env.error = fmt::format(
          "merilo::statem: MERILO_STATEM_SEED={} is not a seed (a decimal or 0x-hex 64-bit "
          "number)",
          core::quoted(seed));
    }
  }
  if (const char* replay = std::getenv("MERILO_STATEM_REPLAY"); replay != nullptr) {
    env.replay = replay;
  }
  return env;
}

std::string token_mismatch(std::string_view token, std::string_view why) {
  return fmt::format(
      "merilo::statem: the replay token {} does not fit this spec: {}; was it made by "
      "another spec or an older version of this one?",
      core::quoted(token), why);
}

}  // namespace merilo::statem::detail
