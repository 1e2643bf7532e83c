// pin.cpp — the pin token of a parallel failure: writing it, and reading it
// back strictly, and its check (failure.hpp, `pin_token`).
#include <charconv>  // std::from_chars
#include <string>
#include <string_view>
#include <vector>

#include <fmt/core.h>

#include <merilo/core/hash.hpp>  // the token's check

#include <merilo/parallel/failure.hpp>

namespace merilo::parallel {

namespace {

constexpr std::string_view kVersion = "p2";
/// Hex digits of the check.
constexpr std::size_t kCheckDigits = 16;
/// Positions per case, at most: a case has a prefix and three short
/// branches, so a larger number is a damaged token, not a case.
constexpr std::size_t kMaxPositions = 1U << 16;

std::string positions(const std::vector<std::size_t>& at) {
  std::string out;
  for (std::size_t p : at) {
    if (!out.empty()) out += '.';
    out += std::to_string(p);
  }
  return out;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  for (;;) {
    const std::size_t k = s.find(sep);
    out.push_back(s.substr(0, k));
    if (k == std::string_view::npos) return out;
    s.remove_prefix(k + 1);
  }
}

template <class N>
bool number(std::string_view s, N& out) {
  if (s.empty() || s.size() > 20) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc{} && r.ptr == s.data() + s.size();
}

bool position_list(std::string_view s, std::vector<std::size_t>& out) {
  if (s.empty()) return true;
  for (std::string_view part : split(s, '.')) {
    std::size_t p = 0;
    if (!number(part, p) || p >= kMaxPositions) return false;
    out.push_back(p);
  }
  return true;
}

/// The token's last field: "free" for a free run, else one digit per
/// scheduling decision ("-" for none). Built by construction, not by
/// assigning a literal: g++ 12 at -O3 reports a false -Wrestrict on the
/// assignment (libstdc++'s _M_replace).
std::string schedule_text(const ScheduleStats& s) {
  if (!is_controlled(s.scheduler)) return std::string("free");
  std::string out;
  for (std::uint8_t c : s.schedule) out += static_cast<char>('0' + c);
  if (out.empty()) return std::string("-");
  return out;
}

/// Adds `text` to `h` with its length first, so no two texts run together.
std::uint64_t feed(std::uint64_t h, std::string_view text) noexcept {
  const std::uint64_t n = text.size();
  h = core::hash64(&n, sizeof n, h);
  return core::hash64(text.data(), text.size(), h);
}

bool hex_check(std::string_view s, std::uint64_t& out) {
  if (s.size() != kCheckDigits) return false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out, 16);
  return r.ec == std::errc{} && r.ptr == s.data() + s.size();
}

}  // namespace

std::string pin_token(const FailureInfo& f) {
  std::string branches;
  for (std::size_t b = 0; b < f.shrunk_branches_at.size(); ++b) {
    if (b != 0) branches += '/';
    branches += positions(f.shrunk_branches_at[b]);
  }
  const std::string body = fmt::format(
      "{}:{}:{}:{}:{}:{}:{}:{}:{}", kVersion, f.seed, f.run, f.branches, f.max_prefix, f.max_branch,
      positions(f.shrunk_prefix_at), branches, schedule_text(f.scheduling));
  return fmt::format("{}:{:016x}", body, detail::pin_check(body, f.shrunk_check));
}

namespace detail {

std::uint64_t case_check(const std::vector<std::string>& prefix,
                         const std::vector<std::vector<std::string>>& branches) {
  std::uint64_t h = core::hash64(nullptr, 0, prefix.size());
  for (const std::string& c : prefix) h = feed(h, c);
  const std::uint64_t n = branches.size();
  h = core::hash64(&n, sizeof n, h);
  for (const auto& b : branches) {
    const std::uint64_t m = b.size();
    h = core::hash64(&m, sizeof m, h);
    for (const std::string& c : b) h = feed(h, c);
  }
  return h;
}

std::uint64_t pin_check(std::string_view body, std::uint64_t case_hash) {
  return feed(core::hash64(&case_hash, sizeof case_hash, 0x70696eULL), body);
}

std::string pin_mismatch(std::string_view token) {
  return fmt::format(
      "merilo::parallel: the pin token \"{}\" does not rebuild the case it was made for: this "
      "pin was made for another case: the spec or its generator changed, or the token was cut "
      "or edited; re-run the check to get a new pin",
      token);
}

std::string parse_pin(std::string_view token, Pin& pin) {
  if (token.substr(0, 3) == "p1:") {
    return fmt::format(
        "merilo::parallel: the pin token \"{}\" is a p1 token, which carries no check of the "
        "case it rebuilds (so a changed generator would replay another case); re-run the check "
        "to get a p2 pin",
        token);
  }
  const std::vector<std::string_view> field = split(token, ':');
  if (field.size() != 10 || field[0] != kVersion) {
    return fmt::format(
        "merilo::parallel: the pin token \"{}\" is malformed: expected 10 fields "
        "p2:SEED:RUN:BRANCHES:MAX_PREFIX:MAX_BRANCH:PREFIX:BRANCHES:SCHEDULE:CHECK; paste the "
        "whole token from the report",
        token);
  }
  const auto bad = [&](std::string_view what) {
    return fmt::format("merilo::parallel: the pin token \"{}\" is malformed: {}", token, what);
  };
  if (!number(field[1], pin.seed)) return bad("the seed is not a number");
  if (!number(field[2], pin.run)) return bad("the run is not a number");
  if (!number(field[3], pin.branches) || pin.branches < kMinBranches ||
      pin.branches > kMaxBranches) {
    return bad("BRANCHES must be 2 or 3");
  }
  if (!number(field[4], pin.max_prefix) || pin.max_prefix >= kMaxPositions) {
    return bad("MAX_PREFIX is not a number below 65536");
  }
  if (!number(field[5], pin.max_branch) || pin.max_branch < kMinBranchLength ||
      pin.max_branch > kMaxBranchLength) {
    return bad("MAX_BRANCH must be in 1..6");
  }
  if (!position_list(field[6], pin.prefix_at)) return bad("the prefix positions are not numbers");
  for (std::string_view b :
       field[7].empty() ? std::vector<std::string_view>{} : split(field[7], '/')) {
    pin.branches_at.emplace_back();
    if (b.empty() || !position_list(b, pin.branches_at.back())) {
      return bad("a branch is empty or its positions are not numbers");
    }
  }
  if (pin.branches_at.size() > kMaxBranches) return bad("more than three branches");
  if (!hex_check(field[9], pin.check)) {
    return bad("the check is not 16 hex digits (was the token cut short?)");
  }
  pin.body = token.substr(0, token.size() - kCheckDigits - 1);
  if (field[8] == "free") {
    pin.controlled = false;
  } else {
    pin.controlled = true;
    if (field[8] != "-") {
      for (char c : field[8]) {
        if (c < '0' || static_cast<std::size_t>(c - '0') >= pin.branches_at.size()) {
          return bad("the schedule names a branch the case does not have");
        }
        pin.schedule.push_back(static_cast<std::uint8_t>(c - '0'));
      }
    }
  }
  return {};
}

}  // namespace detail

}  // namespace merilo::parallel
