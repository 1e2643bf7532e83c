// pin.cpp — the pin token of a parallel failure: writing it, and reading it
// back strictly (failure.hpp, `pin_token`).
#include <charconv>  // std::from_chars
#include <string>
#include <string_view>
#include <vector>

#include <fmt/core.h>

#include <merilo/parallel/failure.hpp>

namespace merilo::parallel {

namespace {

constexpr std::string_view kVersion = "p1";
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

}  // namespace

std::string pin_token(const FailureInfo& f) {
  std::string branches;
  for (std::size_t b = 0; b < f.shrunk_branches_at.size(); ++b) {
    if (b != 0) branches += '/';
    branches += positions(f.shrunk_branches_at[b]);
  }
  return fmt::format("{}:{}:{}:{}:{}:{}:{}:{}:{}", kVersion, f.seed, f.run, f.branches,
                     f.max_prefix, f.max_branch, positions(f.shrunk_prefix_at), branches,
                     schedule_text(f.scheduling));
}

namespace detail {

std::string parse_pin(std::string_view token, Pin& pin) {
  const std::vector<std::string_view> field = split(token, ':');
  if (field.size() != 9 || field[0] != kVersion) {
    return fmt::format(
        "merilo::parallel: the pin token \"{}\" is malformed: expected 9 fields "
        "p1:SEED:RUN:BRANCHES:MAX_PREFIX:MAX_BRANCH:PREFIX:BRANCHES:SCHEDULE; paste the whole "
        "token from the report",
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
