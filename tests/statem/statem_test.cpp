// statem's contract: seeds and reproduction, replay, reports, crashes,
// teardown, retries, bounds and the same-tag rule.
#include <algorithm>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <merilo/core/reentry.hpp>
#include <merilo/statem/guard.hpp>

#include "systems.hpp"

namespace st = merilo::statem;
namespace sys = statem_systems;

namespace {

/// What a probe spec saw.
struct Log {
  int built = 0;
  int torn = 0;
  std::vector<std::pair<int, int>> teardowns;  // (system id, steps it ran)
  int executions = 0;
  int stop_asked = 0;
};

/// A system that counts the commands it ran.
struct Probe {
  int id = 0;
  int steps = 0;
};

enum class Throw : std::uint8_t {
  none,
  new_sut,
  execute,
  finish,
  teardown,
  precondition,
  next_model,
  command,
  non_std
};

/// Commands are integers 0..100; `rule` decides which lists fail, `throws`
/// which callback throws (on commands >= 50, or always for new_sut/teardown).
struct ProbeSpec {
  using model_type = std::vector<int>;
  using command_type = int;
  using sut_type = Probe;

  std::shared_ptr<Log> log = std::make_shared<Log>();
  std::function<st::MaybeViolation(const std::vector<int>& before, int cmd)> rule = nullptr;
  Throw throws = Throw::none;

  model_type initial() const { return {}; }
  st::Gen<int> command(const model_type& m) const {
    if (throws == Throw::command && m.size() == 2) throw std::runtime_error("no generator today");
    return st::integer(0, 100);
  }
  st::Admission precondition(const model_type& /*m*/, const int& c) const {
    if (throws == Throw::precondition && c >= 50) throw std::runtime_error("precondition boom");
    return st::Admission::admit;
  }
  model_type next_model(const model_type& m, const int& c) const {
    if (throws == Throw::next_model && c >= 50) throw std::runtime_error("next_model boom");
    model_type next = m;
    next.push_back(c);
    return next;
  }
  sut_type new_sut() const {
    if (throws == Throw::new_sut) throw std::runtime_error("cannot build");
    return Probe{++log->built, 0};
  }
  st::MaybeViolation execute(sut_type& p, const model_type& before, const int& c) const {
    if (static_cast<int>(before.size()) != p.steps) {
      return st::fail("probe.model", "execute did not get the model before the command");
    }
    if (throws == Throw::execute && c >= 50) throw std::runtime_error("boom");
    if (throws == Throw::non_std && c >= 50) throw 42;
    if (rule) {
      if (st::MaybeViolation v = rule(before, c)) return v;
    }
    ++p.steps;
    return st::ok();
  }
  st::MaybeViolation finish(sut_type& /*p*/, const model_type& m) const {
    if (throws == Throw::finish) {
      for (int c : m) {
        if (c >= 50) throw std::runtime_error("finish boom");
      }
    }
    return st::ok();
  }
  void teardown(sut_type& p) const {
    ++log->torn;
    log->teardowns.emplace_back(p.id, p.steps);
    if (throws == Throw::teardown) throw std::runtime_error("teardown boom");
  }
};

/// Fails with `tag` at any command >= 50.
auto at_least_50(std::string tag) {
  return [tag](const std::vector<int>& /*before*/, int c) -> st::MaybeViolation {
    if (c >= 50) return st::fail(tag, fmt::format("saw {}", c));
    return st::ok();
  };
}

st::CheckOptions seeded(std::uint64_t seed) { return st::CheckOptions{.seed = seed}; }

}  // namespace

// ---- usage ---------------------------------------------------------------------

TEST(StatemUsage, AMissingSeedIsAUsageErrorAndNothingRuns) {
  ProbeSpec spec;
  auto r = st::check(spec, st::CheckOptions{});
  EXPECT_NE(r.error.find("CheckOptions::seed is required"), std::string::npos) << r.error;
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.runs, 0U);
  EXPECT_EQ(spec.log->built, 0);
  EXPECT_FALSE(st::check_run(spec, st::CheckOptions{}, 0).error.empty());
  EXPECT_FALSE(st::commands(spec, st::CheckOptions{}, 0).error.empty());
}

TEST(StatemUsage, ZeroTestsOrZeroCommandsAreUsageErrors) {
  ProbeSpec spec;
  EXPECT_NE(st::check(spec, {.seed = 1, .test_count = 0}).error.find("test_count"),
            std::string::npos);
  EXPECT_NE(st::check(spec, {.seed = 1, .max_commands = 0}).error.find("max_commands"),
            std::string::npos);
  EXPECT_EQ(spec.log->built, 0);
}

TEST(StatemUsage, AMaxCommandsPastTheLimitIsAUsageErrorNamingIt) {
  ProbeSpec spec;
  // 2^30: far above the limit, and within a 32-bit size_t.
  const st::CheckOptions config{.seed = 1, .max_commands = std::size_t{1} << 30};
  const std::string want =
      "CheckOptions::max_commands is 1073741824, above the limit of 100000 commands";
  EXPECT_NE(st::check(spec, config).error.find(want), std::string::npos)
      << st::check(spec, config).error;
  EXPECT_NE(st::check_run(spec, config, 0).error.find(want), std::string::npos);
  EXPECT_NE(st::commands(spec, config, 0).error.find(want), std::string::npos);
  EXPECT_EQ(spec.log->built, 0);
}

TEST(StatemUsage, AnEmptyGeneratorRangeIsAUsageErrorNotAPassingCheck) {
  struct EmptyRange : ProbeSpec {
    st::Gen<int> command(const model_type& /*m*/) const { return st::integer(10, 1); }
  };
  EmptyRange spec;
  auto r = st::check(spec, seeded(1));
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(r.failure);
  EXPECT_NE(r.error.find("integer(10, 1): the range is empty (lo > hi)"), std::string::npos)
      << r.error;
  EXPECT_EQ(spec.log->built, 0);  // nothing ran
  EXPECT_EQ(st::check_run(spec, seeded(1), 3).error, r.error);
  EXPECT_EQ(st::commands(spec, seeded(1), 3).error, r.error);
}

namespace {
/// Draws 0..100 but admits only commands below `limit`.
struct Picky : ProbeSpec {
  int limit = 0;
  st::Admission precondition(const model_type& /*m*/, const int& c) const {
    return c < limit ? st::Admission::admit : st::Admission::reject;
  }
};
}  // namespace

TEST(StatemHealth, ACheckWhoseRunsAreMostlyStarvedFailsAndSaysSo) {
  Picky nothing;  // every draw is rejected: every list is empty
  auto r = st::check(nothing, {.seed = 1, .test_count = 40});
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(r.failure);
  EXPECT_TRUE(r.error.empty());
  EXPECT_EQ(r.runs, 40U);
  EXPECT_EQ(r.starved, 40U);
  EXPECT_NE(r.unhealthy.find("40 of its 40 runs were starved"), std::string::npos) << r.unhealthy;
  Picky rare;  // 1 draw in 101 is admitted: 8 rejections in a row end most lists
  rare.limit = 1;
  auto s = st::check(rare, {.seed = 1, .test_count = 40});
  EXPECT_GT(s.starved * 2, s.runs);
  EXPECT_FALSE(s.unhealthy.empty());
}

TEST(StatemHealth, ACheckWithFewStarvedRunsIsHealthy) {
  Picky half;  // about half the draws are admitted: 8 rejections in a row are rare
  half.limit = 50;
  auto r = st::check(half, {.seed = 1, .test_count = 100});
  EXPECT_TRUE(r.ok()) << r.unhealthy;
  EXPECT_LE(r.starved * 2, r.runs);
  EXPECT_TRUE(r.unhealthy.empty());
}

TEST(StatemUsage, EveryEntryPointRefusesReentryFromACallback) {
  struct Reentrant : ProbeSpec {
    std::shared_ptr<std::vector<std::string>> errors = std::make_shared<std::vector<std::string>>();
    st::MaybeViolation execute(sut_type& p, const model_type& before, const int& c) const {
      ProbeSpec inner;
      errors->push_back(st::check(inner, seeded(1)).error);
      errors->push_back(st::check_run(inner, seeded(1), 0).error);
      errors->push_back(st::commands(inner, seeded(1), 0).error);
      errors->push_back(st::replay(inner, {1, 2}).error);
      return ProbeSpec::execute(p, before, c);
    }
  };
  Reentrant spec;
  auto r = st::check(spec, {.seed = 1, .test_count = 1, .max_commands = 1});
  EXPECT_TRUE(r.ok());
  ASSERT_EQ(spec.errors->size(), 4U);
  for (const std::string& e : *spec.errors) EXPECT_EQ(e, merilo::core::kReentryError);
  // Outside a callback the same calls run.
  EXPECT_TRUE(st::replay(ProbeSpec{}, {1, 2}).ok());
  EXPECT_TRUE(st::check(ProbeSpec{}, seeded(1)).error.empty());
}

// ---- runs, seeds and reproduction ------------------------------------------------

TEST(StatemRuns, ACorrectSystemPassesEveryRunOnAFreshSystemEach) {
  ProbeSpec spec;
  auto r = st::check(spec, {.seed = 3, .test_count = 50});
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.runs, 50U);
  EXPECT_EQ(spec.log->built, 50);
  EXPECT_EQ(spec.log->torn, 50);
}

TEST(StatemRuns, CommandsReturnsTheFailingRunsOriginalListWithoutExecutingIt) {
  const st::CheckOptions config = seeded(12);
  auto r = st::check(sys::kv::Spec{}, config);
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(st::commands(sys::kv::Spec{}, config, r.failure->run).list, r.failure->original);
  ProbeSpec probe;
  auto listed = st::commands(probe, config, 4);
  EXPECT_FALSE(listed.list.empty());
  EXPECT_EQ(probe.log->built, 0);  // nothing executed
}

TEST(StatemRuns, CheckRunReproducesOneRunAlone) {
  const st::CheckOptions config = seeded(7);
  auto r = st::check(sys::kv::Spec{}, config);
  ASSERT_TRUE(r.failure);
  ASSERT_GT(r.failure->run, 0U);  // so the earlier passing runs really are skipped
  auto alone = st::check_run(sys::kv::Spec{}, config, r.failure->run);
  ASSERT_TRUE(alone.failure);
  EXPECT_EQ(alone.runs, 1U);
  EXPECT_EQ(alone.failure->original, r.failure->original);
  EXPECT_EQ(alone.failure->shrunk, r.failure->shrunk);
  EXPECT_EQ(st::report(*alone.failure), st::report(*r.failure));
  EXPECT_TRUE(st::check_run(sys::kv::Spec{}, config, 0).ok());
}

TEST(StatemRuns, TheSameSeedGivesTheSameListsAndTheSameReportByteForByte) {
  const st::CheckOptions config = seeded(2024);
  for (std::size_t run = 0; run < 20; ++run) {
    EXPECT_EQ(st::commands(sys::kv::Spec{}, config, run).list,
              st::commands(sys::kv::Spec{}, config, run).list);
  }
  auto a = st::check(sys::kv::Spec{}, config);
  auto b = st::check(sys::kv::Spec{}, config);
  ASSERT_TRUE(a.failure && b.failure);
  EXPECT_EQ(st::report(*a.failure), st::report(*b.failure));
  EXPECT_NE(st::commands(sys::kv::Spec{}, seeded(2025), 0).list,
            st::commands(sys::kv::Spec{}, config, 0).list);
}

TEST(StatemRuns, ListsAreAdmissibleAndNoLongerThanMaxCommands) {
  const st::CheckOptions config{.seed = 5, .max_commands = 12};
  for (std::size_t run = 0; run < 100; ++run) {
    auto list = st::commands(sys::queue::Spec{}, config, run).list;
    EXPECT_GE(list.size(), 1U);
    EXPECT_LE(list.size(), 12U);
    EXPECT_TRUE(st::replay(sys::queue::Spec{.buggy = false}, list).ok());
  }
}

TEST(StatemRuns, SizesGrowFromShortListsOfSmallValuesToMaxCommandsAndFullRanges) {
  EXPECT_EQ(st::run_size(0, 100), 2U);
  EXPECT_EQ(st::run_size(24, 100), 50U);
  EXPECT_EQ(st::run_size(49, 100), st::kMaxSize);
  EXPECT_EQ(st::run_size(99, 100), st::kMaxSize);
  EXPECT_EQ(st::run_size(0, 1), st::kMaxSize);
  EXPECT_EQ(st::run_length_bound(100, 2), 2U);
  EXPECT_EQ(st::run_length_bound(30, 1), 1U);
  const st::CheckOptions config{.seed = 11};  // max_commands 100, test_count 100
  std::size_t early_longest = 0;
  int early_biggest = 0;
  std::size_t late_longest = 0;
  int late_biggest = 0;
  for (std::size_t run = 0; run < 100; ++run) {
    const auto list = st::commands(ProbeSpec{}, config, run).list;
    const int biggest = list.empty() ? 0 : *std::max_element(list.begin(), list.end());
    if (run < 5) {
      early_longest = std::max(early_longest, list.size());
      early_biggest = std::max(early_biggest, biggest);
    } else if (run >= 50) {
      late_longest = std::max(late_longest, list.size());
      late_biggest = std::max(late_biggest, biggest);
    }
  }
  EXPECT_LE(early_longest, 10U);  // run 4 has size 10: at most 10 commands
  EXPECT_LE(early_biggest, 10);   // and integer(0, 100) draws from [0, 10]
  EXPECT_GT(late_longest, 90U);
  EXPECT_GT(late_biggest, 95);
}

TEST(StatemRuns, EightRejectedDrawsInARowEndTheListEarly) {
  struct Capped : ProbeSpec {
    st::Admission precondition(const model_type& m, const int& /*c*/) const {
      return m.size() < 3 ? st::Admission::admit : st::Admission::reject;
    }
  };
  std::size_t longest = 0;
  for (std::size_t run = 0; run < 30; ++run) {
    const std::size_t n = st::commands(Capped{}, {.seed = 9, .max_commands = 40}, run).list.size();
    EXPECT_LE(n, 3U);
    longest = std::max(longest, n);
  }
  EXPECT_EQ(longest, 3U);  // the cap, not an empty list, ended them
}

TEST(StatemRuns, ExecuteGetsTheModelBeforeTheCommand) {
  ProbeSpec spec;  // execute fails with probe.model otherwise
  auto r = st::check(spec, {.seed = 4, .test_count = 30, .max_commands = 30});
  EXPECT_TRUE(r.ok());
  EXPECT_GT(r.commands_run, 30U);  // execute really ran
}

// ---- replay and report -------------------------------------------------------------

TEST(StatemReplay, AnInadmissibleListIsAPreconditionViolationAtItsStep) {
  using sys::queue::pop;
  using sys::queue::push;
  st::Execution e = st::replay(sys::queue::Spec{.buggy = false}, {push(1), pop(), pop()});
  ASSERT_TRUE(e.violation);
  EXPECT_EQ(e.violation->tag, st::kPreconditionTag);
  EXPECT_EQ(e.stage, st::FailureStage::command);
  EXPECT_EQ(e.step, 2U);
  EXPECT_NE(e.violation->detail.find("command 2 (pop)"), std::string::npos) << e.violation->detail;
}

TEST(StatemReplay, TheShrunkListReproducesTheViolation) {
  auto r = st::check(sys::kv::Spec{}, seeded(1));
  ASSERT_TRUE(r.failure);
  st::Execution e = st::replay(sys::kv::Spec{}, r.failure->shrunk);
  ASSERT_TRUE(e.violation);
  EXPECT_EQ(*e.violation, r.failure->violation);
  EXPECT_EQ(e.step, r.failure->step);
  EXPECT_TRUE(st::replay(sys::kv::Spec{.buggy = false}, r.failure->shrunk).ok());
}

TEST(StatemReport, SaysSeedRunListsStepViolationStatsAndHowToReproduce) {
  auto r = st::check(sys::counter::Spec{}, {.seed = 31, .max_commands = 10});
  ASSERT_TRUE(r.failure);
  const std::string text = st::report(*r.failure);
  const auto has = [&](const std::string& s) { return text.find(s) != std::string::npos; };
  EXPECT_TRUE(has(fmt::format("run {} of seed 31 failed at step 3", r.failure->run))) << text;
  EXPECT_TRUE(has("shrunk list (4 commands), failing at step 3:")) << text;
  EXPECT_TRUE(has("  -> 3  inc\n")) << text;
  EXPECT_TRUE(has(fmt::format("original list ({} commands)", r.failure->original.size()))) << text;
  EXPECT_TRUE(has("violation: [counter.inc] inc at 3 reported true, the model says false")) << text;
  EXPECT_TRUE(has(
      fmt::format("{} shrinks accepted, {} executions", r.failure->shrinks, r.failure->candidates)))
      << text;
  EXPECT_TRUE(has("converged")) << text;
  EXPECT_TRUE(
      has(fmt::format("check_run(spec, {{.seed = 31, .test_count = 100, .max_commands = 10, "
                      ".max_shrinks = 2000, .shrink_retries = 0}}, {})",
                      r.failure->run)))
      << text;
}

namespace hostile {

/// Text that would drive a terminal: a window title (OSC), BEL, a clear
/// screen, CR, NUL, and a newline that forges a line of its own.
const std::string kPayload = std::string("x\x1b]0;pwned\a\x1b[2J\r") + '\0' + "\nforged line";

struct Word {
  int n = 0;
};
std::string merilo_describe(const Word& w) { return std::to_string(w.n) + kPayload; }

/// Every command fails, with the payload in its description, tag and detail.
struct Spec {
  using model_type = int;
  using command_type = Word;
  using sut_type = int;
  int initial() const { return 0; }
  st::Gen<Word> command(const int&) const { return st::just(Word{1}); }
  st::Admission precondition(const int&, const Word&) const { return st::Admission::admit; }
  int next_model(int m, const Word&) const { return m + 1; }
  int new_sut() const { return 0; }
  st::MaybeViolation execute(int&, const int&, const Word&) const {
    return st::fail("tag" + kPayload, "detail" + kPayload);
  }
  st::MaybeViolation finish(int&, const int&) const { return st::ok(); }
  void teardown(int&) const {}
};

}  // namespace hostile

TEST(StatemReport, ControlCharactersInCommandsTagsAndDetailsAreEscaped) {
  auto r = st::check(hostile::Spec{}, {.seed = 1});
  ASSERT_TRUE(r.failure) << r.error;
  const std::string text = st::report(*r.failure);
  for (const char c : text) {
    const auto b = static_cast<unsigned char>(c);
    EXPECT_FALSE((b < 0x20 && c != '\n') || b == 0x7f) << "byte " << int{b} << " in\n" << text;
  }
  EXPECT_EQ(text.find("\nforged"), std::string::npos) << text;
  EXPECT_NE(text.find("1x\\x1b]0;pwned\\x07\\x1b[2J\\r\\x00\\nforged line"), std::string::npos)
      << text;
  // A token with control characters is quoted safely in the usage error.
  auto bad = st::check(hostile::Spec{}, {.replay = "v2\x1b[2J"});
  EXPECT_NE(bad.error.find("\\x1b[2J"), std::string::npos) << bad.error;
  EXPECT_EQ(bad.error.find('\x1b'), std::string::npos);
}

// ---- crashes -------------------------------------------------------------------------

TEST(StatemCrash, AnExceptionFromExecuteIsACrashViolationThatShrinks) {
  ProbeSpec spec{.throws = Throw::execute};
  auto r = st::check(spec, seeded(8));
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->violation.tag, st::kCrashTag);
  EXPECT_EQ(r.failure->violation.detail, "execute threw: boom");
  EXPECT_EQ(r.failure->shrunk, std::vector<int>{50});
  EXPECT_EQ(r.failure->end, st::ShrinkEnd::converged);
}

TEST(StatemCrash, ANonStandardExceptionIsCaughtToo) {
  auto r = st::check(ProbeSpec{.throws = Throw::non_std}, seeded(8));
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->violation.tag, st::kCrashTag);
  EXPECT_NE(r.failure->violation.detail.find("not derived from std::exception"), std::string::npos);
  EXPECT_EQ(r.failure->shrunk, std::vector<int>{50});
}

TEST(StatemCrash, ACrashInNewSutLeavesNoSystemToTearDown) {
  ProbeSpec spec{.throws = Throw::new_sut};
  auto r = st::check(spec, seeded(8));
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->violation.detail, "new_sut threw: cannot build");
  EXPECT_EQ(r.failure->stage, st::FailureStage::setup);
  EXPECT_TRUE(r.failure->shrunk.empty());  // the whole-list deletion fails the same way
  EXPECT_EQ(spec.log->torn, 0);
}

TEST(StatemCrash, CrashesInFinishPreconditionAndNextModelShrinkLikeAnyOther) {
  for (Throw where : {Throw::finish, Throw::precondition, Throw::next_model}) {
    auto r = st::check(ProbeSpec{.throws = where}, seeded(10));
    ASSERT_TRUE(r.failure);
    EXPECT_EQ(r.failure->violation.tag, st::kCrashTag) << r.failure->violation.detail;
    EXPECT_EQ(r.failure->shrunk, std::vector<int>{50}) << st::report(*r.failure);
  }
  auto fin = st::check(ProbeSpec{.throws = Throw::finish}, seeded(10));
  EXPECT_EQ(fin.failure->stage, st::FailureStage::finish);
  EXPECT_EQ(fin.failure->violation.detail, "finish threw: finish boom");
}

TEST(StatemCrash, ACrashWhileDrawingIsReportedAsAGenerationFailure) {
  ProbeSpec spec{.throws = Throw::command};
  auto r = st::check(spec, {.seed = 2, .max_commands = 10});
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->stage, st::FailureStage::generation);
  EXPECT_EQ(r.failure->violation.detail, "command threw: no generator today");
  EXPECT_EQ(r.failure->original.size(), 2U);
  EXPECT_EQ(r.failure->shrunk, r.failure->original);
  auto listed = st::commands(spec, {.seed = 2, .max_commands = 10}, r.failure->run);
  EXPECT_EQ(listed.list, r.failure->original);
  EXPECT_TRUE(listed.generation_crash);
}

// ---- teardown --------------------------------------------------------------------------

TEST(StatemTeardown, RunsOncePerSystemOnEveryPathWithTheSystemTheLastCommandRanOn) {
  ProbeSpec spec{.throws = Throw::execute};
  auto r = st::check(spec, seeded(8));
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(spec.log->torn, spec.log->built);
  // Replaying the shrunk list {50} crashes on step 0: teardown still runs,
  // on the system built for it, which ran no command.
  EXPECT_FALSE(st::replay(spec, r.failure->shrunk).ok());
  EXPECT_EQ(spec.log->teardowns.back(), std::make_pair(spec.log->built, 0));
  // A list that fails at its third command tears down a system that ran two.
  EXPECT_FALSE(st::replay(spec, {1, 2, 60, 3}).ok());
  EXPECT_EQ(spec.log->teardowns.back(), std::make_pair(spec.log->built, 2));
  EXPECT_EQ(spec.log->torn, spec.log->built);

  ProbeSpec failing{.rule = at_least_50("probe.big")};
  auto f = st::check(failing, seeded(8));
  ASSERT_TRUE(f.failure);
  EXPECT_EQ(failing.log->torn, failing.log->built);
  EXPECT_FALSE(st::replay(failing, {7, 80}).ok());
  EXPECT_EQ(failing.log->teardowns.back(), std::make_pair(failing.log->built, 1));
}

TEST(StatemTeardown, ItsOwnExceptionIsSwallowed) {
  ProbeSpec passing{.throws = Throw::teardown};
  EXPECT_TRUE(st::check(passing, {.seed = 1, .test_count = 10}).ok());
  EXPECT_EQ(passing.log->torn, 10);
  ProbeSpec failing{.rule = at_least_50("probe.big"), .throws = Throw::teardown};
  auto r = st::check(failing, seeded(1));
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->violation.tag, "probe.big");
  EXPECT_EQ(r.failure->shrunk, std::vector<int>{50});
}

// ---- retries, bounds and the same-tag rule ------------------------------------------------

namespace {
/// Fails (tag "flaky") on lists holding a command >= 50, but only on every
/// third execution overall.
ProbeSpec flaky() {
  ProbeSpec spec;
  spec.rule = [log = spec.log](const std::vector<int>& before, int c) -> st::MaybeViolation {
    if (before.empty()) ++log->executions;  // one count per execution that runs a command
    if (c >= 50 && log->executions % 3 == 0) return st::fail("flaky", "third time unlucky");
    return st::ok();
  };
  return spec;
}
}  // namespace

TEST(StatemRetries, ACandidateFailsIfAnyOfItsRetriesFailsWithTheTag) {
  auto r = st::check(flaky(), {.seed = 6, .shrink_retries = 2});
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->shrunk, std::vector<int>{50}) << st::report(*r.failure);
  EXPECT_EQ(r.failure->end, st::ShrinkEnd::converged);
}

TEST(StatemRetries, RetriesSpendMaxShrinks) {
  auto r = st::check(flaky(), {.seed = 6, .max_shrinks = 4, .shrink_retries = 2});
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->candidates, 4U);
  EXPECT_EQ(r.failure->end, st::ShrinkEnd::bound_hit);
}

TEST(StatemBounds, MaxShrinksEndsShrinkingAsBoundHit) {
  auto r = st::check(sys::kv::Spec{}, {.seed = 3, .max_shrinks = 3});
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->candidates, 3U);
  EXPECT_EQ(r.failure->end, st::ShrinkEnd::bound_hit);
  EXPECT_NE(st::report(*r.failure).find("bound hit (max_shrinks = 3"), std::string::npos);
  auto full = st::check(sys::kv::Spec{}, {.seed = 3});
  EXPECT_EQ(full.failure->end, st::ShrinkEnd::converged);
  EXPECT_LT(full.failure->candidates, 2000U);
}

TEST(StatemBounds, ShrinkStopIsAskedBeforeEachShrinkExecutionOnly) {
  auto log = std::make_shared<Log>();
  auto stop_after_5 = [log]() {
    return ++log->stop_asked > 5 ? st::ShrinkStop::stop_shrinking : st::ShrinkStop::keep_shrinking;
  };
  auto r = st::check(sys::kv::Spec{}, {.seed = 3, .shrink_stop = stop_after_5});
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->candidates, 5U);
  EXPECT_EQ(log->stop_asked, 6);
  EXPECT_EQ(r.failure->end, st::ShrinkEnd::bound_hit);
  log->stop_asked = 0;
  EXPECT_TRUE(
      st::check(sys::kv::Spec{.buggy = false}, {.seed = 3, .shrink_stop = stop_after_5}).ok());
  EXPECT_EQ(log->stop_asked, 0);  // never asked when nothing fails
  auto throwing = []() -> st::ShrinkStop { throw std::runtime_error("no"); };
  auto t = st::check(sys::kv::Spec{}, {.seed = 3, .shrink_stop = throwing});
  ASSERT_TRUE(t.failure);
  EXPECT_EQ(t.failure->candidates, 0U);
  EXPECT_EQ(t.failure->end, st::ShrinkEnd::bound_hit);
}

TEST(StatemBounds, AnEndlessTreeOfInadmissibleShrinksStopsAtTheCap) {
  struct Endless : ProbeSpec {
    st::Gen<int> command(const model_type& /*m*/) const {
      // 1000, whose shrinks -1, -2, -3, ... never end and are all inadmissible.
      return st::Gen<int>{[](st::Rng& /*rng*/) {
        return std::optional<st::Tree<int>>{
            st::Tree<int>{1000, [] {
                            int next = 0;
                            return st::Seq<st::Tree<int>>{[next]() mutable {
                              return std::optional<st::Tree<int>>{st::Tree<int>{--next}};
                            }};
                          }}};
      }};
    }
    st::Admission precondition(const model_type& /*m*/, const int& c) const {
      return c >= 0 ? st::Admission::admit : st::Admission::reject;
    }
  };
  Endless spec;
  spec.rule = at_least_50("probe.big");
  auto r = st::check(spec, {.seed = 1, .max_commands = 1});
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->inadmissible, st::kMaxInadmissible);
  EXPECT_EQ(r.failure->end, st::ShrinkEnd::bound_hit);
  EXPECT_EQ(r.failure->shrunk, std::vector<int>{1000});
}

TEST(StatemSameTag, ShrinkingKeepsOnlyCandidatesThatFailWithTheOriginalTag) {
  // Tag "fifth" at the fifth command, tag "zero" at any earlier 0: shrinking
  // values toward 0 would switch to "zero", which the rule refuses.
  ProbeSpec spec;
  spec.rule = [](const std::vector<int>& before, int c) -> st::MaybeViolation {
    if (before.size() == 4) return st::fail("fifth", "five commands");
    if (c == 0) return st::fail("zero", "a zero");
    return st::ok();
  };
  int checked = 0;
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    auto r = st::check(spec, {.seed = seed, .max_commands = 10});
    ASSERT_TRUE(r.failure);
    EXPECT_EQ(r.failure->violation.tag, r.failure->original_violation.tag);
    if (r.failure->original_violation.tag == "fifth") {
      ++checked;
      EXPECT_EQ(r.failure->shrunk, (std::vector<int>{1, 1, 1, 1, 0})) << st::report(*r.failure);
    } else {
      EXPECT_EQ(r.failure->shrunk, std::vector<int>{0});
    }
  }
  EXPECT_GE(checked, 5);  // 8 of these 100 seeds fail with "fifth" first
}

TEST(Guarded, TurnsAnEscapingExceptionIntoTheCrashViolationNamingTheCallback) {
  merilo::statem::MaybeViolation out;
  EXPECT_TRUE(merilo::statem::guarded("execute", out, [] {}));
  EXPECT_FALSE(out.has_value());
  EXPECT_FALSE(merilo::statem::guarded("execute", out, [] { throw std::runtime_error("full"); }));
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->tag, merilo::statem::kCrashTag);
  EXPECT_EQ(out->detail, "execute threw: full");
}

namespace {

// The text of a file of merilo's source tree (MERILO_SOURCE_DIR).
std::string source_text(const std::string& relative) {
  std::ifstream in(std::string(MERILO_SOURCE_DIR) + "/" + relative);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(StatemDocs, TheHeaderListsTheNameOfEveryShrinkEnd) {
  const std::string header = source_text("statem/include/merilo/statem/statem.hpp");
  const std::string decl = "[[nodiscard]] std::string_view name(ShrinkEnd end) noexcept;";
  const std::size_t at = header.find(decl);
  ASSERT_NE(at, std::string::npos) << "statem.hpp no longer declares name(ShrinkEnd)";
  const std::size_t line = header.rfind("///", at);
  const std::string doc = header.substr(line, at - line);
  for (const st::ShrinkEnd end : {st::ShrinkEnd::converged, st::ShrinkEnd::bound_hit}) {
    EXPECT_NE(doc.find(fmt::format("\"{}\"", st::name(end))), std::string::npos)
        << "the doc of name(ShrinkEnd), " << doc << ", lacks \"" << st::name(end) << "\"";
  }
}

/// Whether enum `E` has an enumerator `out_of_retries`.
template <class E>
concept HasOutOfRetries = requires { E::out_of_retries; };

TEST(StatemNames, ShrinkEndHoldsOnlyTheEndsASequentialShrinkCanHave) {
  // Running out of retries is parallel's (a free-thread failure that needs
  // several executions to appear); a sequential run is deterministic.
  static_assert(!HasOutOfRetries<st::ShrinkEnd>);
  EXPECT_EQ(st::name(st::ShrinkEnd::bound_hit), "bound hit");
}

}  // namespace
