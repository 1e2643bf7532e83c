// report_test.cpp — the report's layout: the race as aligned columns in
// order of invocation with instants from the first call, the evidence, and
// the reproduce lines at the end; and no user text reaches the terminal raw.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <merilo/linearize/models.hpp>
#include <merilo/parallel/failure.hpp>
#include <merilo/parallel/parallel.hpp>

namespace {

namespace parallel = merilo::parallel;
using Failure = parallel::Failure<int, int>;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

Failure raced() {
  Failure f;
  f.seed = 7;
  f.run = 3;
  f.branches = 2;
  f.max_prefix = 6;
  f.max_branch = 4;
  f.violation = {std::string(parallel::kNotLinearizableTag), "no order fits"};
  f.original_violation = f.violation;
  f.evidence = parallel::Evidence::raced;
  f.explanation = "not linearizable (2 evaluations)\nplaced 1 of 3 calls:";
  f.original = {.prefix = {9}, .branches = {{1, 2}, {3}}};
  f.shrunk = f.original;
  f.prefix_responses = {90};
  // Branch 0 calls at 1..3 us and 5..6 us; branch 1 at 2..2.5 us.
  f.histories = {{{1, 10, 1'000'000, 1'003'000}, {2, 20, 1'005'000, 1'006'000}},
                 {{3, 30, 1'002'000, 1'002'500}}};
  return f;
}

TEST(ParallelNames, WhatOnlyAConcurrentCheckFindsIsTaggedParallel) {
  for (const std::string_view tag :
       {parallel::kNotLinearizableTag, parallel::kUndecidedTag, parallel::kTimeoutTag,
        parallel::kDeadlockTag, parallel::kLivelockTag, parallel::kNondeterministicTag,
        parallel::kNoRaceTag}) {
    EXPECT_EQ(tag.substr(0, 9), "parallel.") << tag;
  }
}

TEST(ParallelNames, MutexMisuseIsTheSchedulingRuntimesVerdictWhicheverEntryPointRanIt) {
  // The controller names misuse the same way under parallel::check and
  // sync::model: parallel's names are sync's.
  EXPECT_EQ(parallel::kUnlockNotOwnedTag, merilo::sync::kUnlockNotOwnedTag);
  EXPECT_EQ(parallel::kDoubleUnlockTag, merilo::sync::kDoubleUnlockTag);
  EXPECT_EQ(parallel::kWaitWithoutLockTag, merilo::sync::kWaitWithoutLockTag);
  EXPECT_EQ(parallel::kDestroyedLockedTag, merilo::sync::kDestroyedLockedTag);
  EXPECT_EQ(parallel::kUnlockNotOwnedTag.substr(0, 5), "sync.");
}

/// Whether enum `E` has an enumerator `out_of_retries`.
template <class E>
concept HasOutOfRetries = requires { E::out_of_retries; };

TEST(ParallelNames, ShrinkEndIsParallelsOwnAndNamesRunningOutOfRetries) {
  static_assert(HasOutOfRetries<parallel::ShrinkEnd>);
  static_assert(!std::is_same_v<parallel::ShrinkEnd, merilo::statem::ShrinkEnd>);
  EXPECT_EQ(parallel::name(parallel::ShrinkEnd::out_of_retries), "out of retries");
  EXPECT_EQ(parallel::name(parallel::ShrinkEnd::converged), "converged");
  EXPECT_EQ(parallel::name(parallel::ShrinkEnd::bound_hit), "bound hit");
}

TEST(ParallelReport, TheRaceIsAnAlignedTimelineInOrderOfInvocation) {
  const std::vector<std::string> lines = lines_of(parallel::report(raced()));
  std::size_t head = 0;
  while (head < lines.size() && lines[head].find("branch 0 ") == std::string::npos) ++head;
  ASSERT_LT(head + 3, lines.size());
  const std::vector<std::string> rows(lines.begin() + static_cast<std::ptrdiff_t>(head + 1),
                                      lines.begin() + static_cast<std::ptrdiff_t>(head + 4));
  // Rows in order of invocation: branch 0's first call, branch 1's, branch 0's second.
  EXPECT_NE(rows[0].find("[      0.0 ..       3.0] 1 -> 10"), std::string::npos) << rows[0];
  EXPECT_NE(rows[1].find("[      2.0 ..       2.5] 3 -> 30"), std::string::npos) << rows[1];
  EXPECT_NE(rows[2].find("[      5.0 ..       6.0] 2 -> 20"), std::string::npos) << rows[2];
  // Every row puts the column separator where the header does, and branch
  // 1's calls start after it.
  const std::size_t bar = lines[head].find(" |");
  ASSERT_NE(bar, std::string::npos);
  for (const std::string& row : rows) EXPECT_EQ(row.find(" |"), bar) << row;
  EXPECT_GT(rows[1].find('['), bar);
  EXPECT_LT(rows[0].find('['), bar);
}

TEST(ParallelReport, ItShowsThePrefixTheCheckerAndEndsWithTheReproduceLines) {
  const std::string text = parallel::report(raced());
  EXPECT_NE(text.find("run 3 of seed 7 failed: parallel.not_linearizable"), std::string::npos);
  EXPECT_NE(text.find("0. 9 -> 90"), std::string::npos) << text;
  EXPECT_NE(text.find("  placed 1 of 3 calls:"), std::string::npos) << text;
  const std::vector<std::string> lines = lines_of(text);
  ASSERT_GE(lines.size(), 2U);
  EXPECT_EQ(lines[lines.size() - 2],
            "  merilo::parallel::check_run(spec, {.seed = 7, .branches = 2, .max_prefix = 6, "
            ".max_branch = 4}, 3);");
  EXPECT_NE(lines.back().find("generate_case(spec, {.seed = 7"), std::string::npos);
}

TEST(ParallelReport, APrefixFailurePointsAtItsStepAndATimeoutSaysTheSystemWasLeftAlive) {
  Failure f = raced();
  f.evidence = parallel::Evidence::in_prefix;
  f.prefix_step = 0;
  f.histories.clear();
  EXPECT_NE(parallel::report(f).find("0. 9 -> 90   <-- failed here"), std::string::npos)
      << parallel::report(f);

  f.evidence = parallel::Evidence::unrecorded;
  f.unfinished = {1};
  f.system_left_alive = true;
  const std::string text = parallel::report(f);
  EXPECT_NE(text.find("still running at the deadline: branch 1"), std::string::npos) << text;
  EXPECT_NE(text.find("left alive"), std::string::npos) << text;
}

}  // namespace

namespace hostile {

/// Text that would drive a terminal: a window title (OSC), BEL, a clear
/// screen, CR, NUL, and a newline that forges a line of its own.
const std::string kPayload = std::string("x\x1b]0;pwned\a\x1b[2J\r") + '\0' + "\nforged line";

struct Word {
  int n = 0;
  friend bool operator==(const Word&, const Word&) = default;
};
inline std::string merilo_describe(const Word& w) { return std::to_string(w.n) + kPayload; }

/// A counter whose every response is off by one, described with the payload.
struct Spec {
  using model_type = int;
  using command_type = Word;
  using response_type = Word;
  using sut_type = int;
  int initial() const { return 0; }
  merilo::statem::Gen<Word> command(const int&) const { return merilo::statem::just(Word{1}); }
  merilo::statem::Admission precondition(const int&, const Word&) const {
    return merilo::statem::Admission::admit;
  }
  int next_model(const int& m, const Word&) const { return m + 1; }
  int new_sut() const { return 0; }
  Word run(int&, const Word&) const { return Word{-1}; }
  merilo::statem::MaybeViolation postcondition(const int&, const Word&, const Word&) const {
    return merilo::statem::Violation{"tag" + kPayload, "detail" + kPayload};
  }
  merilo::statem::MaybeViolation finish(int&) const { return std::nullopt; }
  void teardown(int&) const {}
};

/// Whether `text` holds a byte a terminal acts on, other than the report's
/// own line breaks, or a line that the payload forged.
std::string unsafe(const std::string& text) {
  for (const char c : text) {
    const auto b = static_cast<unsigned char>(c);
    if ((b < 0x20 && c != '\n') || b == 0x7f) return "a control byte " + std::to_string(b);
  }
  for (const std::string& line : lines_of(text)) {
    if (line.rfind("forged", 0) == 0) return "a forged line";
  }
  return {};
}

}  // namespace hostile

TEST(ParallelReport, ControlCharactersInEveryUserTextAreEscaped) {
  // A failure laid out by hand: every field a user's text reaches.
  parallel::Failure<hostile::Word, hostile::Word> f;
  f.violation = {"tag" + hostile::kPayload, "detail" + hostile::kPayload};
  f.original_violation = {"tag" + hostile::kPayload, "original" + hostile::kPayload};
  f.evidence = parallel::Evidence::raced;
  f.original = {.prefix = {{1}}, .branches = {{{2}}, {{3}}}};
  f.shrunk = f.original;
  f.prefix_responses = {{4}};
  f.histories = {{{{2}, {5}, 1'000, 2'000}}, {{{3}, {6}, 1'500, 2'500}}};
  const std::string text = parallel::report(f);
  EXPECT_EQ(hostile::unsafe(text), "") << text;
  EXPECT_NE(text.find("\\x1b]0;pwned\\x07"), std::string::npos) << text;

  // And a real check, whose checker explanation quotes the calls.
  const auto r = parallel::check(hostile::Spec{}, {.seed = 1, .max_prefix = 0, .max_shrinks = 4});
  ASSERT_TRUE(r.failure.has_value()) << r.error;
  const std::string checked = parallel::report(*r.failure);
  EXPECT_EQ(hostile::unsafe(checked), "") << checked;
  for (const auto& s : r.failure->stuck) EXPECT_EQ(hostile::unsafe(s.reason), "") << s.reason;
}

namespace forgetful {

namespace lin = merilo::linearize;
namespace st = merilo::statem;

/// A register that forgets every write, specified with linearize's built-in
/// register types as they are: no wrapper gives them a `merilo_describe`.
struct Spec {
  using model_type = lin::RegisterModel;
  using command_type = lin::RegisterCmd;
  using response_type = lin::RegisterResponse;
  using sut_type = int;
  lin::RegisterModel initial() const { return {}; }
  st::Gen<lin::RegisterCmd> command(const lin::RegisterModel&) const {
    return st::element_of(
        std::vector<lin::RegisterCmd>{lin::RegisterCmd::write(3), lin::RegisterCmd::read()});
  }
  st::Admission precondition(const lin::RegisterModel&, const lin::RegisterCmd&) const {
    return st::Admission::admit;
  }
  lin::RegisterModel next_model(const lin::RegisterModel& m, const lin::RegisterCmd& c) const {
    return lin::RegisterSpec{}.next_model(m, c);
  }
  int new_sut() const { return 0; }
  lin::RegisterResponse run(int&, const lin::RegisterCmd&) const {
    return lin::RegisterResponse::of(std::nullopt);
  }
  st::MaybeViolation postcondition(const lin::RegisterModel& m, const lin::RegisterCmd& c,
                                   const lin::RegisterResponse& r) const {
    const std::optional<std::string> why = lin::RegisterSpec{}.postcondition(m, c, r);
    if (!why) return std::nullopt;
    return st::Violation{"register.forgot", *why};
  }
  st::MaybeViolation finish(int&) const { return std::nullopt; }
  void teardown(int&) const {}
};

}  // namespace forgetful

TEST(ParallelReport, ALinearizeModelsCommandsPrintInASpecWithoutAWrapper) {
  static_assert(parallel::Spec<forgetful::Spec>);
  const auto r = parallel::check(forgetful::Spec{}, {.seed = 3, .max_shrinks = 50});
  ASSERT_TRUE(r.failure.has_value()) << r.error;
  const std::string text = parallel::report(*r.failure);
  // The model's own words for its calls and responses: "write 3", "read"
  // answered "null".
  EXPECT_NE(text.find("write 3"), std::string::npos) << text;
  EXPECT_NE(text.find("read"), std::string::npos) << text;
  EXPECT_NE(text.find("null"), std::string::npos) << text;
}

namespace pin_text {

parallel::FailureInfo pinned(parallel::Scheduler scheduler, std::vector<std::uint8_t> schedule) {
  parallel::FailureInfo f;
  f.seed = 12;
  f.run = 3;
  f.branches = 3;
  f.max_prefix = 6;
  f.max_branch = 4;
  f.shrunk_prefix_at = {0, 2, 5};
  f.shrunk_branches_at = {{1}, {6}, {3, 4}};
  f.scheduling.scheduler = scheduler;
  f.scheduling.schedule = std::move(schedule);
  return f;
}

}  // namespace pin_text

/// The token without its check, and whether the check is 16 hex digits.
std::string body_of(const std::string& token) {
  const std::size_t colon = token.rfind(':');
  const std::string check = token.substr(colon + 1);
  if (check.size() != 16 || check.find_first_not_of("0123456789abcdef") != std::string::npos) {
    return "bad check: " + token;
  }
  return token.substr(0, colon);
}

TEST(ParallelPin, TheTokenJoinsPositionsWithDotsBranchesWithSlashesAndNamesTheSchedule) {
  using parallel::Scheduler;
  const auto controlled = pin_text::pinned(Scheduler::preemption_bounded, {0, 2, 2, 0});
  EXPECT_EQ(body_of(parallel::pin_token(controlled)), "p2:12:3:3:6:4:0.2.5:1/6/3.4:0220");
  EXPECT_EQ(body_of(parallel::pin_token(pin_text::pinned(Scheduler::pct, {}))),
            "p2:12:3:3:6:4:0.2.5:1/6/3.4:-");
  EXPECT_EQ(body_of(parallel::pin_token(pin_text::pinned(Scheduler::stress, {1}))),
            "p2:12:3:3:6:4:0.2.5:1/6/3.4:free");

  parallel::FailureInfo bare = controlled;
  bare.shrunk_prefix_at.clear();
  bare.shrunk_branches_at = {{7}, {8}};
  bare.branches = 2;
  bare.scheduling.schedule = {1};
  EXPECT_EQ(body_of(parallel::pin_token(bare)), "p2:12:3:2:6:4::7/8:1");

  // What the token says is what the parser reads back.
  parallel::detail::Pin pin;
  ASSERT_EQ(parallel::detail::parse_pin(parallel::pin_token(controlled), pin), "");
  EXPECT_EQ(pin.prefix_at, (std::vector<std::size_t>{0, 2, 5}));
  EXPECT_EQ(pin.branches_at.size(), 3U);
  EXPECT_EQ(pin.branches_at[2], (std::vector<std::size_t>{3, 4}));
  EXPECT_TRUE(pin.controlled);
  EXPECT_EQ(pin.schedule, (std::vector<std::uint8_t>{0, 2, 2, 0}));
}

TEST(ParallelPin, TheCheckCoversTheFieldsTheScheduleAndTheCaseInWords) {
  using parallel::Scheduler;
  const auto base = pin_text::pinned(Scheduler::preemption_bounded, {0, 2, 2, 0});
  const std::string token = parallel::pin_token(base);
  const auto check_of = [](const std::string& t) { return t.substr(t.rfind(':') + 1); };
  auto other_case = base;
  other_case.shrunk_check =
      parallel::detail::case_check({"inc"}, std::vector<std::vector<std::string>>{{"get"}});
  auto other_schedule = pin_text::pinned(Scheduler::preemption_bounded, {0, 2, 2, 1});
  auto other_run = base;
  other_run.run = 4;
  EXPECT_NE(check_of(parallel::pin_token(other_case)), check_of(token));
  EXPECT_NE(check_of(parallel::pin_token(other_schedule)), check_of(token));
  EXPECT_NE(check_of(parallel::pin_token(other_run)), check_of(token));
  // Commands that run together differently are other cases.
  EXPECT_NE(parallel::detail::case_check({"ab"}, {{"c"}}),
            parallel::detail::case_check({"a"}, {{"bc"}}));
  EXPECT_NE(parallel::detail::case_check({}, {{"a"}, {"b"}}),
            parallel::detail::case_check({}, {{"a", "b"}}));
}
