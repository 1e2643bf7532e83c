// pin_test.cpp — a pin token rebuilds exactly the failing case or is
// refused: its check covers the case's commands and the schedule, so a
// token cut short, edited, or used on a spec whose generator changed is a
// usage error, never another case that passes; and a pin replays under the
// scheduler that found it, whatever its branch count.
#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <merilo/parallel/parallel.hpp>

#include "controlled_systems.hpp"

namespace {

namespace parallel = merilo::parallel;
namespace st = merilo::statem;

/// The racy counter with its generator's order changed: the same run draws
/// the same shapes with other commands.
struct ReorderedCounterSpec : controlled::CounterSpec {
  st::Gen<controlled::Op> command(const controlled::Value&) const {
    return st::element_of<controlled::Op>({controlled::Op::get, controlled::Op::inc});
  }
};

/// The pin of the racy counter's lost update (seed 5).
std::string lost_update_pin() {
  const auto r = parallel::check(controlled::CounterSpec{.racy = true}, {.seed = 5});
  if (!r.failure) return {};
  return parallel::pin_token(*r.failure);
}

/// The token with field `k` (0-based, ':'-separated) replaced by `with`.
std::string with_field(const std::string& token, std::size_t k, const std::string& with) {
  std::vector<std::string> fields;
  std::size_t from = 0;
  for (;;) {
    const std::size_t at = token.find(':', from);
    fields.push_back(token.substr(from, at - from));
    if (at == std::string::npos) break;
    from = at + 1;
  }
  fields.at(k) = with;
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) out += (i == 0 ? "" : ":") + fields[i];
  return out;
}

constexpr std::string_view kAnotherCase = "this pin was made for another case";

TEST(ParallelPin, ATokenEndsWithACheckOfSixteenHexDigits) {
  const std::string token = lost_update_pin();
  ASSERT_FALSE(token.empty());
  EXPECT_EQ(token.substr(0, 3), "p2:");
  const std::size_t colon = token.rfind(':');
  ASSERT_NE(colon, std::string::npos);
  EXPECT_EQ(token.size() - colon - 1, 16U) << token;
  const auto again = parallel::replay(controlled::CounterSpec{.racy = true}, token);
  EXPECT_TRUE(again.error.empty()) << again.error;
  EXPECT_TRUE(again.failure.has_value());
}

TEST(ParallelPin, ATokenCutShortAnywhereIsAUsageErrorNeverAPass) {
  const std::string token = lost_update_pin();
  ASSERT_FALSE(token.empty());
  for (std::size_t n = 1; n < token.size(); ++n) {
    const std::string cut = token.substr(0, n);
    const auto r = parallel::replay(controlled::CounterSpec{.racy = true}, cut);
    EXPECT_FALSE(r.error.empty()) << cut << " replayed a case";
    EXPECT_FALSE(r.failure.has_value()) << cut;
  }
}

TEST(ParallelPin, ATokenOnASpecWhoseGeneratorChangedIsRefusedAsAnotherCase) {
  const std::string token = lost_update_pin();
  ASSERT_FALSE(token.empty());
  const auto r = parallel::replay(ReorderedCounterSpec{{.racy = true}}, token);
  EXPECT_NE(r.error.find(kAnotherCase), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("re-run the check to get a new pin"), std::string::npos) << r.error;
  EXPECT_FALSE(r.failure.has_value());
}

TEST(ParallelPin, AnEditedScheduleIsRefusedAsAnotherCase) {
  const std::string token = lost_update_pin();
  ASSERT_FALSE(token.empty());
  for (const std::string& schedule : {std::string("free"), std::string("-"), std::string("1"),
                                      std::string("0"), std::string("00")}) {
    const std::string edited = with_field(token, 8, schedule);
    if (edited == token) continue;
    const auto r = parallel::replay(controlled::CounterSpec{.racy = true}, edited);
    EXPECT_NE(r.error.find(kAnotherCase), std::string::npos) << edited << ": " << r.error;
    EXPECT_FALSE(r.failure.has_value()) << edited;
  }
}

TEST(ParallelPin, EditedGenerationSettingsOrPositionsAreRefusedAsAnotherCase) {
  const std::string token = lost_update_pin();
  ASSERT_FALSE(token.empty());
  // BRANCHES 3 (the lists name two), another run, other bounds, other positions.
  for (const auto& [k, value] : std::vector<std::pair<std::size_t, std::string>>{
           {3, "3"}, {2, "1"}, {4, "5"}, {5, "3"}, {7, "0/1"}, {6, "0"}}) {
    const std::string edited = with_field(token, k, value);
    if (edited == token) continue;
    const auto r = parallel::replay(controlled::CounterSpec{.racy = true}, edited);
    EXPECT_FALSE(r.error.empty()) << edited << " replayed a case";
    EXPECT_FALSE(r.failure.has_value()) << edited;
  }
}

TEST(ParallelPin, AP1TokenWithoutACheckIsRefusedWithHowToGetANewOne) {
  const auto r = parallel::replay(controlled::CounterSpec{.racy = true}, "p1:5:0:2:6:4::0/1:01");
  EXPECT_NE(r.error.find("re-run the check to get a p2 pin"), std::string::npos) << r.error;
  EXPECT_FALSE(r.failure.has_value());
}

/// Checks `spec`, expects its failure shrunk below two branches, and
/// replays its pin: the same tag, under control, well before the deadline.
template <class S>
void expect_one_branch_pin_replays_as(const S& spec, std::string_view tag) {
  const parallel::CheckOptions options{
      .seed = 1, .test_count = 5, .max_prefix = 0, .max_branch = 1, .max_steps = 2000};
  const auto r = parallel::check(spec, options);
  ASSERT_TRUE(r.failure.has_value());
  ASSERT_EQ(r.failure->violation.tag, tag) << parallel::report(*r.failure);
  ASSERT_LT(r.failure->shrunk.branches.size(), 2U) << parallel::report(*r.failure);
  ASSERT_TRUE(parallel::is_controlled(r.failure->scheduling.scheduler));
  const auto started = std::chrono::steady_clock::now();
  const auto again = parallel::replay(spec, parallel::pin_token(*r.failure),
                                      {.max_steps = 2000, .deadline = std::chrono::seconds(3)});
  const auto took = std::chrono::steady_clock::now() - started;
  ASSERT_TRUE(again.error.empty()) << again.error;
  ASSERT_TRUE(again.failure.has_value());
  EXPECT_EQ(again.failure->violation.tag, tag) << parallel::report(*again.failure);
  EXPECT_EQ(again.failure->violation.detail, r.failure->violation.detail);
  EXPECT_LT(took, std::chrono::seconds(2));
}

TEST(ParallelPin, AOneBranchLivelockPinReplaysAsALivelockUnderControl) {
  expect_one_branch_pin_replays_as(
      controlled::MeetSpec{.wait = controlled::Wait::spin_yield, .need = 3},
      parallel::kLivelockTag);
}

TEST(ParallelPin, AOneBranchDeadlockPinReplaysAsTheSameDeadlockUnderControl) {
  expect_one_branch_pin_replays_as(
      controlled::MeetSpec{.wait = controlled::Wait::condition, .need = 3}, parallel::kDeadlockTag);
}

}  // namespace
