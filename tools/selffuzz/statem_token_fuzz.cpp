// statem_token_fuzz.cpp — fuzzes statem's replay tokens: the bytes are a
// token, replayed through `statem::check` (`CheckOptions::replay`) on a
// register with a bug that seed 1 finds. For every byte string:
//
//   * the check returns (no crash, no sanitizer report, no hang) and draws
//     nothing past `max_commands`: the commands it ran are at most the
//     token's bound, which is at most `max_commands`;
//   * a token it accepts rebuilt its list exactly: the failure is marked
//     replayed and carries the token as given; a token that rebuilds a
//     list that passes is only possible with a forged check, so it is
//     reported as a finding too;
//   * a token the parser accepts formats back to a token that parses to
//     the same fields (the round trip the report relies on).
//
// Any disagreement prints the token and aborts.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include <merilo/statem/statem.hpp>

#include "seeds.hpp"

namespace {

namespace st = merilo::statem;

constexpr std::size_t kMaxCommands = 40;

/// A register that loses an `add` once it holds 10 or more: run 0 of seed
/// 1 already finds it.
struct Register {
  int value = 0;
  void add(int n) {
    if (value < 10) value += n;
  }
};

/// `add(n)` or `read`.
struct Cmd {
  bool add;
  int n;
};
std::string merilo_describe(const Cmd& c) {
  return c.add ? fmt::format("add({})", c.n) : std::string("read");
}

struct RegisterSpec {
  using model_type = int;  // the sum of the adds
  using command_type = Cmd;
  using sut_type = Register;

  int initial() const { return 0; }
  st::Gen<Cmd> command(const int&) const {
    return st::one_of<Cmd>({st::map(st::integer(1, 6),
                                    [](int n) {
                                      return Cmd{true, n};
                                    }),
                            st::just(Cmd{false, 0})});
  }
  st::Admission precondition(const int&, const Cmd&) const { return st::Admission::admit; }
  int next_model(int m, const Cmd& c) const { return c.add ? m + c.n : m; }
  Register new_sut() const { return Register{}; }
  st::MaybeViolation execute(Register& r, const int& before, const Cmd& c) const {
    if (c.add) {
      r.add(c.n);
      return st::ok();
    }
    if (r.value == before) return st::ok();
    return st::fail("register.read", fmt::format("read {}, the model says {}", r.value, before));
  }
  st::MaybeViolation finish(Register&, const int&) const { return st::ok(); }
  void teardown(Register&) const {}
};

[[noreturn]] void fail(const char* what, std::string_view token) {
  std::fprintf(stderr, "==merilo== ERROR: statem replay token: %s (token \"%.*s\")\n", what,
               static_cast<int>(token.size()), token.data());
  std::abort();
}

/// The tokens of a few real failures, and cut and edited copies of one.
std::vector<std::vector<std::uint8_t>> seed_tokens() {
  std::vector<std::string> tokens;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const auto r = st::check(RegisterSpec{}, {.seed = seed, .max_commands = kMaxCommands});
    if (r.failure) tokens.push_back(r.failure->replay_token);
  }
  if (!tokens.empty()) {
    const std::string whole = tokens.front();
    tokens.push_back(whole.substr(0, whole.rfind(':')));             // the check cut off
    tokens.push_back(whole.substr(0, whole.size() / 2));             // cut in the middle
    tokens.push_back("v1" + whole.substr(2, whole.rfind(':') - 2));  // the old format
  }
  tokens.emplace_back("v2:1:0:100:1000000000000:0:0000000000000000");  // a huge bound
  std::vector<std::vector<std::uint8_t>> out;
  out.reserve(tokens.size());
  for (const std::string& t : tokens) out.emplace_back(t.begin(), t.end());
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  merilo::selffuzz::exit_on_dict_flag(*argc, *argv);
  const std::string dir = merilo::selffuzz::seed_dir(*argc, *argv);
  if (dir.empty()) return 0;
  merilo::selffuzz::write_seeds(dir, seed_tokens());
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;  // an empty token means "no replay": a whole check
  const std::string token(reinterpret_cast<const char*>(data), size);

  st::detail::ReplayToken parsed;
  const std::string parse_error = st::detail::parse_token(token, kMaxCommands, parsed);
  if (parse_error.empty()) {
    if (parsed.bound > kMaxCommands) fail("a bound past max_commands was accepted", token);
    st::detail::ReplayToken again;
    if (!st::detail::parse_token(st::detail::format_token(parsed), kMaxCommands, again).empty()) {
      fail("a parsed token does not format to a token that parses", token);
    }
    if (again.seed != parsed.seed || again.run != parsed.run || again.size != parsed.size ||
        again.bound != parsed.bound || again.items != parsed.items || again.check != parsed.check) {
      fail("a parsed token formats to a different token", token);
    }
  }

  const auto r = st::check(RegisterSpec{}, {.max_commands = kMaxCommands, .replay = token});
  if (r.error.empty() != parse_error.empty() && r.error.empty()) {
    fail("check accepted a token the parser refused", token);
  }
  if (!r.error.empty()) {
    if (r.failure) fail("a refused token still reported a failure", token);
    return 0;
  }
  if (r.commands_run > kMaxCommands) fail("more commands ran than max_commands", token);
  if (!r.failure) fail("an accepted token rebuilt a list that passes", token);
  if (!r.failure->replayed) fail("an accepted token's failure is not marked replayed", token);
  if (r.failure->replay_token != token) fail("the failure does not carry its token", token);
  if (r.failure->shrunk.size() > r.failure->original.size()) {
    fail("the rebuilt list is longer than the run's list", token);
  }
  return 0;
}
