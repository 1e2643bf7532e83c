// fuzz.cpp — the parts of fuzz.hpp that do not depend on the spec: the
// options' checks, the case header, the pin token, the verdict of an
// execution, and the report's text.
#include <algorithm>  // std::sort
#include <charconv>   // std::from_chars
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/core.h>

#include <merilo/core/text.hpp>       // user text made printable
#include <merilo/core/type_name.hpp>  // core::test_identifier
#include <merilo/parallel/fuzz.hpp>
#include <merilo/parallel/parallel.hpp>  // detail::config_error, detail::clamped

namespace merilo::parallel {

std::vector<std::uint8_t> case_header(std::size_t run) {
  return {static_cast<std::uint8_t>(run & 0xffU), static_cast<std::uint8_t>((run >> 8U) & 0xffU)};
}

namespace detail {

namespace {

constexpr std::string_view kFuzzVersion = "pf1";
constexpr std::size_t kCheckDigits = 16;

CheckOptions as_check(const FuzzOptions& options) {
  CheckOptions c;
  c.seed = options.seed;
  c.branches = options.branches;
  c.max_prefix = options.max_prefix;
  c.max_branch = options.max_branch;
  c.search_budget = options.search_budget;
  c.max_steps = options.max_steps;
  return c;
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
bool number(std::string_view s, N& out, int base = 10) {
  if (s.empty() || s.size() > 20) return false;
  for (char c : s) {
    const bool digit = c >= '0' && c <= '9';
    const bool hex = base == 16 && c >= 'a' && c <= 'f';
    if (!digit && !hex) return false;
  }
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out, base);
  return r.ec == std::errc{} && r.ptr == s.data() + s.size();
}

std::string hex_bytes(const std::vector<std::uint8_t>& bytes) {
  if (bytes.empty()) return std::string("-");
  std::string out;
  out.reserve(2 * bytes.size());
  for (std::uint8_t b : bytes) out += fmt::format("{:02x}", b);
  return out;
}

bool parse_hex_bytes(std::string_view s, std::vector<std::uint8_t>& out) {
  if (s == "-") return true;
  if (s.empty() || s.size() % 2 != 0) return false;
  for (std::size_t i = 0; i < s.size(); i += 2) {
    unsigned v = 0;
    if (!number(s.substr(i, 2), v, 16)) return false;
    out.push_back(static_cast<std::uint8_t>(v));
  }
  return true;
}

/// The lines of a case: the prefix, then each branch.
std::string case_lines(const FuzzText& text) {
  const auto joined = [](const std::vector<std::string>& commands) {
    if (commands.empty()) return std::string("(empty)");
    std::string out;
    for (const std::string& c : commands) out += (out.empty() ? "" : ", ") + core::printable(c);
    return out;
  };
  std::string out = "    prefix:   " + joined(text.prefix) + "\n";
  for (std::size_t b = 0; b < text.branches.size(); ++b) {
    out += fmt::format("    branch {}: {}\n", b, joined(text.branches[b]));
  }
  return out;
}

/// The race's calls in the order they started, with their instants.
std::string race_lines(const FuzzText& text) {
  struct Row {
    std::int64_t at;
    std::size_t branch;
    const CallText* call;
  };
  std::vector<Row> rows;
  for (std::size_t b = 0; b < text.histories.size(); ++b) {
    for (const CallText& c : text.histories[b]) rows.push_back({c.invoked_at, b, &c});
  }
  std::sort(rows.begin(), rows.end(), [](const Row& x, const Row& y) { return x.at < y.at; });
  std::string out;
  for (const Row& r : rows) {
    out += fmt::format("  [{:3} .. {:3}] branch {}: {} -> {}\n", r.call->invoked_at,
                       r.call->returned_at, r.branch, core::printable(r.call->command),
                       core::printable(r.call->response));
  }
  return out;
}

}  // namespace

std::string fuzz_options_error(const FuzzOptions& options) {
  if (options.cases == 0 || options.cases > kMaxFuzzCases) {
    return fmt::format(
        "merilo::parallel::FuzzOptions::cases is {}: it must be in 1..{} (the input's two header "
        "bytes pick one)",
        options.cases, kMaxFuzzCases);
  }
  if (options.max_steps == 0) {
    return "merilo::parallel::FuzzOptions::max_steps is 0: an execution needs at least one step";
  }
  return config_error(as_check(options));
}

CheckOptions fuzz_config(const FuzzOptions& options) { return clamped(as_check(options)); }

std::size_t case_of(std::span<const std::uint8_t> input, std::size_t cases) noexcept {
  std::size_t v = 0;
  if (!input.empty()) v = input[0];
  if (input.size() > 1) v |= static_cast<std::size_t>(input[1]) << 8U;
  return cases == 0 ? 0 : v % cases;
}

std::string fuzz_token(const FuzzRunInfo& info, std::uint64_t case_hash) {
  const std::string body = fmt::format("{}:{}:{}:{}:{}:{}:{}:{}", kFuzzVersion, info.seed, info.run,
                                       info.branches, info.max_prefix, info.max_branch,
                                       info.memory_model ? "rc11" : "sc", hex_bytes(info.schedule));
  return fmt::format("{}:{:016x}", body, pin_check(body, case_hash));
}

std::string parse_fuzz_token(std::string_view token, FuzzPin& pin) {
  const std::vector<std::string_view> field = split(token, ':');
  if (field.size() != 9 || field[0] != kFuzzVersion) {
    return fmt::format(
        "merilo::parallel: the fuzz pin token \"{}\" is malformed: expected 9 fields "
        "pf1:SEED:RUN:BRANCHES:MAX_PREFIX:MAX_BRANCH:MEMORY:SCHEDULE:CHECK; paste the whole "
        "token from the report",
        core::printable(token));
  }
  const auto bad = [&](std::string_view what) {
    return fmt::format("merilo::parallel: the fuzz pin token \"{}\" is malformed: {}",
                       core::printable(token), what);
  };
  if (!number(field[1], pin.seed)) return bad("the seed is not a number");
  if (!number(field[2], pin.run)) return bad("the run is not a number");
  if (!number(field[3], pin.branches) || pin.branches < kMinBranches ||
      pin.branches > kMaxBranches) {
    return bad("BRANCHES must be 2 or 3");
  }
  if (!number(field[4], pin.max_prefix) || pin.max_prefix > kMaxPrefixLimit) {
    return bad("MAX_PREFIX is not a number up to 10000");
  }
  if (!number(field[5], pin.max_branch) || pin.max_branch < kMinBranchLength ||
      pin.max_branch > kMaxBranchLength) {
    return bad("MAX_BRANCH must be in 1..6");
  }
  if (field[6] != "rc11" && field[6] != "sc") return bad("MEMORY must be rc11 or sc");
  pin.memory_model = field[6] == "rc11";
  if (!parse_hex_bytes(field[7], pin.schedule)) {
    return bad("the schedule is not hex bytes (or - for none)");
  }
  if (field[8].size() != kCheckDigits || !number(field[8], pin.check, 16)) {
    return bad("the check is not 16 hex digits (was the token cut short?)");
  }
  pin.body = token.substr(0, token.size() - kCheckDigits - 1);
  return {};
}

MaybeViolation fuzz_verdict(const MaybeViolation& own,
                            const std::optional<sync::ModelFailure>& failure) {
  if (!failure) return own;  // a verdict without a failed execution: none (the body throws)
  const std::string_view tag = failure->tag;
  if (tag == sync::kExceptionTag && own) return own;
  if (tag == sync::kDeadlockTag) {
    return statem::Violation{std::string(kDeadlockTag),
                             "every unfinished thread is blocked: " + failure->message};
  }
  if (tag == sync::kLivelockTag)
    return statem::Violation{std::string(kLivelockTag), failure->message};
  if (tag == sync::kNondeterministicTag) {
    return statem::Violation{std::string(kNondeterministicTag), failure->message};
  }
  if (tag == sync::kExceptionTag || tag == sync::kAssertionTag) {
    return statem::Violation{std::string(statem::kCrashTag), failure->message};
  }
  return statem::Violation{std::string(tag), failure->message};  // misuse, in sync's words
}

std::string format_fuzz_report(const FuzzRunInfo& info, const FuzzText& text) {
  if (!info.error.empty()) return info.error + "\n";
  const std::string name = info.name.empty() ? std::string("parallel fuzz") : info.name;
  std::string out;
  if (!info.violation) {
    out = fmt::format("merilo::parallel {}: case {} of seed {} passed under this schedule\n", name,
                      info.run, info.seed);
  } else {
    out = fmt::format(
        "merilo::parallel {}: case {} of seed {} failed under this schedule: {}\n  {}\n", name,
        info.run, info.seed, core::printable(info.violation->tag),
        core::printable(info.violation->detail));
  }
  out += fmt::format(
      "\ncase (run {} of a check with seed {}, branches {}, max_prefix {}, max_branch {}):\n",
      info.run, info.seed, info.branches, info.max_prefix, info.max_branch);
  out += case_lines(text);
  out += fmt::format("evidence: {}\n", merilo::parallel::name(info.evidence));
  if (info.evidence == Evidence::in_prefix && info.violation) {
    out += fmt::format("  prefix call {} broke it; the responses before it:", info.prefix_step);
    for (const std::string& r : text.prefix_responses) {
      out += ' ';
      out += core::printable(r);
    }
    out += "\n";
  }
  if (!text.histories.empty()) {
    out += "race (logical instants; each call from its invocation to its return):\n";
    out += race_lines(text);
  }
  if (!info.explanation.empty()) out += "checker:\n" + info.explanation;
  if (!out.empty() && out.back() != '\n') out += '\n';
  if (const auto& f = info.execution.result.failure) {
    out +=
        fmt::format("\nschedule: {} preemption{}, {} weak choice{}, atomics {}; every step:\n{}",
                    f->preemptions, f->preemptions == 1 ? "" : "s", f->weak_choices,
                    f->weak_choices == 1 ? "" : "s",
                    info.memory_model ? "under the memory model (RC11)" : "sequentially consistent",
                    f->timeline);
    if (!f->memory.empty()) out += "\natomics (which store each load read):\n" + f->memory;
  }
  if (info.violation && !info.token.empty()) {
    out += fmt::format(
        "\nPin it with this test, which fails while the bug is there:\n\n"
        "TEST(Pinned, {}_{}) {{\n"
        "  const auto r = merilo::parallel::replay_input(\n"
        "      {},\n"
        "      \"{}\");\n"
        "  EXPECT_TRUE(r.passed()) << r.report();\n"
        "}}\n",
        core::test_identifier(name), core::test_identifier(info.violation->tag), info.spec_text,
        info.token);
  }
  return out;
}

}  // namespace detail

}  // namespace merilo::parallel
