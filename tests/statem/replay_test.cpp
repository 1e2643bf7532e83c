// Reproduction: every report ends with a line that re-runs exactly the
// shrunk failure (pasted back here through CheckOptions::replay and through
// MERILO_STATEM_REPLAY), MERILO_STATEM_SEED overrides every check's seed,
// and long original lists are printed cut.
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "deep_systems.hpp"
#include "systems.hpp"

namespace st = merilo::statem;
namespace sys = statem_systems;
namespace ds = deep_systems;

namespace {

/// The report's last line, without its newline.
std::string last_line(const std::string& text) {
  std::string body = text;
  if (!body.empty() && body.back() == '\n') body.pop_back();
  return body.substr(body.rfind('\n') + 1);
}

/// The token of the report's last line `MERILO_STATEM_REPLAY=<token>`.
std::string pasted_token(const std::string& report) {
  const std::string line = last_line(report);
  const std::string key = "MERILO_STATEM_REPLAY=";
  EXPECT_EQ(line.rfind(key, 0), 0U) << line;
  return line.substr(key.size());
}

/// Sets an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) { setenv(name, value, 1); }
  ~ScopedEnv() { unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
};

}  // namespace

TEST(StatemReplayToken, TheReportsLastLinePastedBackReRunsExactlyTheShrunkFailure) {
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    auto r = st::check(ds::hashmap::Spec{}, {.seed = seed});
    ASSERT_TRUE(r.failure);
    const std::string token = pasted_token(st::report(*r.failure));
    auto again = st::check(ds::hashmap::Spec{}, {.replay = token});
    ASSERT_TRUE(again.error.empty()) << again.error;
    ASSERT_TRUE(again.failure);
    EXPECT_TRUE(again.failure->replayed);
    EXPECT_EQ(again.failure->shrunk, r.failure->shrunk);
    EXPECT_EQ(again.failure->original, r.failure->original);
    EXPECT_EQ(again.failure->violation, r.failure->violation);
    EXPECT_EQ(again.failure->step, r.failure->step);
    EXPECT_EQ(again.runs, 1U);
    EXPECT_NE(st::report(*again.failure).find("rebuilt from a replay token"), std::string::npos);
    // The same through the environment, which overrides the config.
    ScopedEnv env("MERILO_STATEM_REPLAY", token.c_str());
    auto from_env = st::check(ds::hashmap::Spec{}, {.seed = 12345});
    ASSERT_TRUE(from_env.failure);
    EXPECT_EQ(from_env.failure->shrunk, r.failure->shrunk);
  }
}

TEST(StatemReplayToken, AFixedSystemPassesTheReplayedFailure) {
  auto r = st::check(ds::trie::Spec{}, {.seed = 4});
  ASSERT_TRUE(r.failure);
  auto fixed = st::check(ds::trie::Spec{.buggy = false}, {.replay = r.failure->replay_token});
  EXPECT_TRUE(fixed.ok()) << fixed.error;
  EXPECT_EQ(fixed.runs, 1U);
  EXPECT_EQ(fixed.commands_run, r.failure->shrunk.size());
}

TEST(StatemReplayToken, AMalformedOrForeignTokenIsAUsageError) {
  const std::string check = ":0000000000000000";
  auto bad = st::check(sys::counter::Spec{}, {.replay = "v2:zz:0:1:1:0" + check});
  EXPECT_FALSE(bad.failure);
  EXPECT_NE(bad.error.find("is malformed: the seed is not a hex number"), std::string::npos)
      << bad.error;
  EXPECT_NE(
      st::check(sys::counter::Spec{}, {.replay = "v3:1:0:1:1:0" + check}).error.find("malformed"),
      std::string::npos);
  // Index 1 of a list of at most 2 commands that drew fewer.
  auto foreign = st::check(sys::counter::Spec{}, {.seed = 1, .replay = "v2:1:0:0:1:0.90" + check});
  EXPECT_NE(foreign.error.find("does not fit this spec: a child index is past the end"),
            std::string::npos)
      << foreign.error;
  auto past = st::check(sys::counter::Spec{}, {.replay = "v2:1:0:2:2:40" + check});
  EXPECT_NE(past.error.find("a command index is past the length bound"), std::string::npos)
      << past.error;
  auto order = st::check(sys::counter::Spec{}, {.replay = "v2:1:0:2:2:1,0" + check});
  EXPECT_NE(order.error.find("the command indices do not increase"), std::string::npos)
      << order.error;
}

TEST(StatemReplayToken, AV1TokenIsRefusedBecauseItCarriesNoCheck) {
  auto old = st::check(sys::counter::Spec{}, {.replay = "v1:1:5:12:12:0.0,1.0,2.1,3"});
  EXPECT_FALSE(old.failure);
  EXPECT_NE(old.error.find("v1 tokens carry no check"), std::string::npos) << old.error;
}

TEST(StatemReplayToken, ATokenCutAnywhereIsAUsageErrorNeverAPass) {
  auto r = st::check(sys::kv::Spec{}, {.seed = 7});
  ASSERT_TRUE(r.failure);
  const std::string token = pasted_token(st::report(*r.failure));
  ASSERT_TRUE(st::check(sys::kv::Spec{}, {.replay = token}).failure);
  for (std::size_t n = 1; n < token.size(); ++n) {
    const std::string cut = token.substr(0, n);
    auto again = st::check(sys::kv::Spec{}, {.replay = cut});
    EXPECT_FALSE(again.error.empty()) << cut << " ran " << again.commands_run << " commands";
    EXPECT_FALSE(again.failure) << cut;
  }
}

TEST(StatemReplayToken, ATokenWhoseItemsWereEditedDoesNotRebuildItsListAndIsRefused) {
  auto r = st::check(sys::kv::Spec{}, {.seed = 7});
  ASSERT_TRUE(r.failure);
  ASSERT_GE(r.failure->shrunk.size(), 2U);
  const std::string token = pasted_token(st::report(*r.failure));
  // Drop the last item but keep the check: the list rebuilt is one shorter.
  const std::size_t check_at = token.rfind(':');
  const std::size_t last_item = token.rfind(',', check_at);
  ASSERT_NE(last_item, std::string::npos) << token;
  const std::string edited = token.substr(0, last_item) + token.substr(check_at);
  auto again = st::check(sys::kv::Spec{}, {.replay = edited});
  EXPECT_FALSE(again.failure);
  EXPECT_NE(again.error.find("the list it rebuilds is not the one it was made from"),
            std::string::npos)
      << edited << ": " << again.error;
}

TEST(StatemReplayToken, ABoundAboveMaxCommandsIsRefusedBeforeAnythingIsDrawn) {
  // A bound of 10^12 commands would be drawn (and allocated) before any
  // item is looked at.
  auto huge =
      st::check(sys::counter::Spec{}, {.replay = "v2:1:0:100:1000000000000:0:0000000000000000"});
  EXPECT_FALSE(huge.failure);
  EXPECT_NE(huge.error.find("more than this check's CheckOptions::max_commands (100)"),
            std::string::npos)
      << huge.error;
  EXPECT_EQ(huge.commands_run, 0U);
}

TEST(StatemEnvironment, MerIloStatemSeedOverridesTheSeedOfEveryCheck) {
  auto plain = st::check(sys::kv::Spec{}, {.seed = 7});
  ASSERT_TRUE(plain.failure);
  {
    ScopedEnv env("MERILO_STATEM_SEED", "7");
    auto overridden = st::check(sys::kv::Spec{}, {.seed = 1});
    ASSERT_TRUE(overridden.failure);
    EXPECT_EQ(overridden.failure->seed, 7U);
    EXPECT_EQ(st::report(*overridden.failure), st::report(*plain.failure));
    // Even a config without a seed runs.
    EXPECT_TRUE(st::check(sys::kv::Spec{}, st::CheckOptions{}).error.empty());
  }
  {
    ScopedEnv env("MERILO_STATEM_SEED", "0x7");
    EXPECT_EQ(st::check(sys::kv::Spec{}, {.seed = 1}).failure->seed, 7U);
  }
  ScopedEnv env("MERILO_STATEM_SEED", "seven");
  auto bad = st::check(sys::kv::Spec{}, {.seed = 1});
  EXPECT_NE(bad.error.find("MERILO_STATEM_SEED=\"seven\" is not a seed"), std::string::npos)
      << bad.error;
}

TEST(StatemReport, ALongOriginalListIsCutToItsFirstAndLastLines) {
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    auto r = st::check(ds::hashmap::Spec{}, {.seed = seed});
    ASSERT_TRUE(r.failure);
    if (r.failure->original.size() <= 40) continue;
    const std::string text = st::report(*r.failure);
    const std::size_t n = r.failure->original.size();
    EXPECT_NE(text.find("commands not shown"), std::string::npos) << text;
    EXPECT_NE(text.find(merilo::core::describe(r.failure->original[n - 1])), std::string::npos);
    // Lines 0..7 and n-8..n-1 and the failing one: at most 17 numbered lines.
    const std::size_t shown_from = text.find("original list");
    std::size_t numbered = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (text.find(fmt::format("\n     {:>2}  ", i), shown_from) != std::string::npos ||
          text.find(fmt::format("\n  -> {:>2}  ", i), shown_from) != std::string::npos) {
        ++numbered;
      }
    }
    EXPECT_LE(numbered, 17U) << text;
    EXPECT_GE(numbered, 16U) << text;
    return;
  }
  FAIL() << "no seed drew an original list longer than 40 commands";
}
