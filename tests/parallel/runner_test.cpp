// runner_test.cpp — executions: the race, the deadline, crashes in every
// callback, finish, the checker's verdicts, re-entry and usage errors.
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include <merilo/core/reentry.hpp>
#include <merilo/parallel/parallel.hpp>
#include <merilo/parallel/shrink.hpp>

#include "probe.hpp"

namespace {

namespace parallel = merilo::parallel;
namespace st = merilo::statem;
using probe::Op;

TEST(ParallelRunner, ACorrectSystemPassesAndEverySystemIsTornDownOnce) {
  probe::Spec spec;
  const auto r =
      parallel::check(spec, {.seed = 21, .branches = 3, .scheduler = parallel::Scheduler::os});
  EXPECT_TRUE(r.ok()) << (r.failure ? parallel::report(*r.failure) : r.error);
  EXPECT_EQ(r.runs, 100U);
  EXPECT_EQ(r.executions, 300U);  // repeat = 3
  EXPECT_EQ(spec.hooks->built.load(), 300);
  EXPECT_EQ(spec.hooks->torn_down.load(), 300);
  EXPECT_EQ(spec.hooks->destroyed.load(), 300);
}

TEST(ParallelRunner, ABranchPastTheDeadlineTimesOutAndItsSystemIsLeftAlive) {
  probe::Spec spec;
  auto release = std::make_shared<std::atomic<bool>>(false);
  auto stuck = std::make_shared<std::atomic<int>>(0);
  spec.hooks->in_run = [release, stuck](Op op) {
    if (op != Op::read) return;
    stuck->fetch_add(1);
    release->wait(false);  // a call that never returns, until released
  };
  // No prefix and no shrinking: the reads are only ever raced.
  const auto r = parallel::check(spec, {.seed = 2,
                                        .max_prefix = 0,
                                        .max_shrinks = 0,
                                        .repeat = 1,
                                        .deadline = std::chrono::milliseconds(30)});
  ASSERT_TRUE(r.failure.has_value());
  const auto& f = *r.failure;
  EXPECT_EQ(f.violation.tag, parallel::kTimeoutTag) << parallel::report(f);
  EXPECT_EQ(f.evidence, parallel::Evidence::unrecorded);
  EXPECT_TRUE(f.system_left_alive);
  EXPECT_FALSE(f.unfinished.empty());
  EXPECT_NE(parallel::report(f).find("left alive"), std::string::npos);

  // The stuck systems were neither torn down nor destroyed under their threads.
  const int built = spec.hooks->built.load();
  EXPECT_GT(stuck->load(), 0);
  EXPECT_LT(spec.hooks->torn_down.load(), built);
  EXPECT_LT(spec.hooks->destroyed.load(), built);

  // Once the calls return, the abandoned threads finish and free them.
  release->store(true);
  release->notify_all();
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (spec.hooks->destroyed.load() < built && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(spec.hooks->destroyed.load(), built);
  EXPECT_LT(spec.hooks->torn_down.load(), built);  // never torn down, only destroyed
}

TEST(ParallelRunner, ACrashInARacingRunIsAStatemCrash) {
  probe::Spec spec;
  spec.hooks->in_run = [](Op op) {
    if (op == Op::read) throw std::runtime_error("read exploded");
  };
  // No prefix and no shrinking: the reads are only ever raced.
  const auto r = parallel::check(spec, {.seed = 6, .max_prefix = 0, .max_shrinks = 0});
  ASSERT_TRUE(r.failure.has_value());
  const auto& f = *r.failure;
  EXPECT_EQ(f.violation.tag, st::kCrashTag);
  EXPECT_NE(f.violation.detail.find("run threw: read exploded"), std::string::npos)
      << f.violation.detail;
  EXPECT_NE(f.violation.detail.find("branch"), std::string::npos);
  EXPECT_EQ(f.evidence, parallel::Evidence::unrecorded);
  EXPECT_FALSE(f.system_left_alive);
  EXPECT_EQ(spec.hooks->torn_down.load(), spec.hooks->built.load());
}

TEST(ParallelRunner, ACrashInAPrefixRunShrinksToThePrefixAlone) {
  probe::Spec spec;
  spec.hooks->in_run = [](Op op) {
    if (op == Op::read) throw std::runtime_error("prefix read exploded");
  };
  // The prefix runs before the race, so its read throws first.
  const auto r = parallel::check(spec, probe::with_read_in_prefix({}));
  ASSERT_TRUE(r.failure.has_value());
  const auto& f = *r.failure;
  EXPECT_EQ(f.violation.tag, st::kCrashTag);
  EXPECT_EQ(f.evidence, parallel::Evidence::in_prefix);
  EXPECT_EQ(f.shrunk, (parallel::Case<Op>{.prefix = {Op::read}, .branches = {}}))
      << parallel::report(f);
  EXPECT_EQ(f.prefix_step, 0U);
}

TEST(ParallelRunner, APrefixResponseTheModelRefusesKeepsTheSpecsTag) {
  probe::Spec spec;
  spec.hooks->alter = [](Op op, std::int64_t got) { return op == Op::read ? got + 7 : got; };
  // The prefix runs before the race, so its read is judged first.
  const auto r = parallel::check(spec, probe::with_read_in_prefix({}));
  ASSERT_TRUE(r.failure.has_value());
  const auto& f = *r.failure;
  EXPECT_EQ(f.violation.tag, "probe.value");
  EXPECT_EQ(f.evidence, parallel::Evidence::in_prefix);
  EXPECT_TRUE(f.shrunk.branches.empty());
  ASSERT_EQ(f.shrunk.prefix, std::vector<Op>{Op::read});
  ASSERT_EQ(f.prefix_responses.size(), 1U);
  EXPECT_EQ(f.prefix_responses[0], 7);
  EXPECT_NE(parallel::report(f).find("failed here"), std::string::npos);
}

TEST(ParallelRunner, ACrashInPostconditionIsAStatemCrash) {
  probe::Spec spec;
  spec.hooks->in_postcondition = [](Op op) {
    if (op == Op::take) throw std::logic_error("postcondition exploded");
  };
  const auto r = parallel::check(spec, {.seed = 12});
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->violation.tag, st::kCrashTag);
  EXPECT_NE(r.failure->violation.detail.find("postcondition"), std::string::npos);
  EXPECT_NE(r.failure->violation.detail.find("postcondition exploded"), std::string::npos);
}

TEST(ParallelRunner, ACrashInARacedPostconditionIsAStatemCrashFromTheChecker) {
  probe::Spec spec;
  spec.hooks->only_adds = true;  // no prefix postcondition can throw before the race
  auto in_race = std::make_shared<std::atomic<bool>>(false);
  spec.hooks->in_run = [in_race](Op) { in_race->store(true); };  // no prefix: every run races
  spec.hooks->in_postcondition = [in_race](Op) {
    if (in_race->load()) throw std::logic_error("checker-side explosion");
  };
  const auto r = parallel::check(spec, {.seed = 12, .max_prefix = 0, .max_shrinks = 0});
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->violation.tag, st::kCrashTag);
  EXPECT_EQ(r.failure->evidence, parallel::Evidence::raced);
  EXPECT_NE(r.failure->violation.detail.find("checker-side explosion"), std::string::npos);
}

TEST(ParallelRunner, AFinishViolationKeepsItsTagAndShowsTheRace) {
  probe::Spec spec;
  spec.hooks->in_finish = [] { return st::Violation{"probe.audit", "books do not balance"}; };
  const auto r = parallel::check(spec, {.seed = 13, .max_shrinks = 0});
  ASSERT_TRUE(r.failure.has_value());
  const auto& f = *r.failure;
  EXPECT_EQ(f.violation.tag, "probe.audit");
  EXPECT_EQ(f.evidence, parallel::Evidence::after_race);
  EXPECT_EQ(f.histories.size(), f.shrunk.branches.size());
  EXPECT_EQ(f.end, parallel::ShrinkEnd::bound_hit);
  EXPECT_NE(parallel::report(f).find("branch 1"), std::string::npos);
}

TEST(ParallelRunner, AFinishViolationShrinksToTheEmptyCase) {
  probe::Spec spec;
  spec.hooks->in_finish = [] { return st::Violation{"probe.audit", "always"}; };
  const auto r = parallel::check(spec, {.seed = 13, .shrink_retries = 1});
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->shrunk, parallel::Case<Op>{});
  EXPECT_EQ(r.failure->end, parallel::ShrinkEnd::converged);
  EXPECT_GT(r.failure->shrinks, 0U);
}

TEST(ParallelRunner, ACrashInFinishIsAStatemCrashNamingFinish) {
  probe::Spec spec;
  spec.hooks->in_finish = []() -> parallel::MaybeViolation { throw std::runtime_error("audit"); };
  const auto r = parallel::check(spec, {.seed = 14, .max_shrinks = 0});
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->violation.tag, st::kCrashTag);
  EXPECT_NE(r.failure->violation.detail.find("finish threw: audit"), std::string::npos);
  EXPECT_EQ(r.failure->evidence, parallel::Evidence::after_race);
}

TEST(ParallelRunner, ASpentSearchBudgetIsUndecidedNeverAPass) {
  probe::Spec spec;
  const auto r = parallel::check(spec, {.seed = 15, .max_shrinks = 0, .search_budget = 1});
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->violation.tag, parallel::kUndecidedTag);
  EXPECT_EQ(r.failure->evidence, parallel::Evidence::raced);
}

TEST(ParallelRunner, ShrinkStopEndsShrinkingEarly) {
  probe::Spec spec;
  spec.hooks->in_finish = [] { return st::Violation{"probe.audit", "always"}; };
  int asked = 0;
  const auto r = parallel::check(spec, {.seed = 13, .shrink_stop = [&asked] {
                                          ++asked;
                                          return st::ShrinkStop::stop_shrinking;
                                        }});
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(asked, 1);
  EXPECT_EQ(r.failure->shrinks, 0U);
  EXPECT_EQ(r.failure->end, parallel::ShrinkEnd::bound_hit);
  EXPECT_EQ(r.failure->shrunk, r.failure->original);
}

TEST(ParallelRunner, RepeatRunsACaseSeveralTimesBeforeItPasses) {
  // finish fails on every third execution only.
  const auto failing_third = [](probe::Spec& spec) {
    auto n = std::make_shared<int>(0);
    spec.hooks->in_finish = [n]() -> parallel::MaybeViolation {
      if ((*n)++ % 3 == 2) return st::Violation{"probe.third", "every third execution"};
      return std::nullopt;
    };
  };
  probe::Spec twice;
  failing_third(twice);
  EXPECT_TRUE(
      parallel::check(
          twice, {.seed = 5, .test_count = 1, .scheduler = parallel::Scheduler::os, .repeat = 2})
          .ok());
  probe::Spec thrice;
  failing_third(thrice);
  const auto r = parallel::check(
      thrice, {.seed = 5, .test_count = 1, .scheduler = parallel::Scheduler::os, .repeat = 3});
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->violation.tag, "probe.third");
}

TEST(ParallelRunner, EachShrinkCandidateIsTriedShrinkRetriesTimes) {
  probe::Spec spec;
  spec.hooks->only_adds = true;  // every candidate is admissible
  auto n = std::make_shared<int>(0);
  spec.hooks->in_finish = [n]() -> parallel::MaybeViolation {
    if ((*n)++ == 0) return st::Violation{"probe.once", "only the first execution fails"};
    return std::nullopt;
  };
  const auto r = parallel::check(spec, {.seed = 5, .shrink_retries = 4});
  ASSERT_TRUE(r.failure.has_value());
  const auto& f = *r.failure;
  EXPECT_EQ(f.shrunk, f.original);  // no candidate failed again
  EXPECT_EQ(f.shrinks, 0U);
  EXPECT_EQ(f.end, parallel::ShrinkEnd::converged);
  EXPECT_EQ(f.executions, 1 + 4 * parallel::shrink_candidates(f.original).size());
}

TEST(ParallelRunner, RefusesReentryFromARacingThreadAndFromTheCheckingThread) {
  probe::Spec spec;
  auto mu = std::make_shared<std::mutex>();
  auto errors = std::make_shared<std::vector<std::string>>();
  spec.hooks->in_run = [mu, errors](Op) {
    const auto inner = parallel::check(probe::Spec{}, {.seed = 1});
    std::lock_guard lock(*mu);
    errors->push_back(inner.error);
  };
  spec.hooks->in_postcondition = [mu, errors](Op) {
    const auto inner = parallel::generate_case(probe::Spec{}, {.seed = 1}, 0);
    std::lock_guard lock(*mu);
    errors->push_back(inner.error);
  };
  const auto r = parallel::check(spec, {.seed = 1, .test_count = 3});
  EXPECT_TRUE(r.ok());
  ASSERT_FALSE(errors->empty());
  for (const std::string& e : *errors) EXPECT_EQ(e, merilo::core::kReentryError);
  EXPECT_FALSE(merilo::core::inside_merilo());
}

TEST(ParallelRunner, CheckRunOfTheLastRunIndexRunsIt) {
  // run + 1 overflowed to 0, so check_run(…, SIZE_MAX) ran nothing and passed.
  probe::Spec spec;
  spec.hooks->in_finish = [] {
    return merilo::parallel::MaybeViolation{st::Violation{"probe.finish", "always"}};
  };
  const auto r = parallel::check_run(spec, {.seed = 1, .max_shrinks = 0}, SIZE_MAX);
  EXPECT_EQ(r.runs, 1U);
  ASSERT_TRUE(r.failure.has_value()) << r.error;
  EXPECT_EQ(r.failure->run, SIZE_MAX);
}

TEST(ParallelRunner, UsageErrorsNameTheFieldAndRunNothing) {
  probe::Spec spec;
  const auto expect_error = [&](const parallel::CheckOptions& config, const std::string& field) {
    const auto r = parallel::check(spec, config);
    EXPECT_NE(r.error.find(field), std::string::npos) << r.error;
    EXPECT_FALSE(r.failure.has_value());
    EXPECT_EQ(r.runs, 0U);
    EXPECT_NE(parallel::check_run(spec, config, 0).error.find(field), std::string::npos);
  };
  expect_error({}, "CheckOptions::seed is required");
  expect_error({.seed = 1, .test_count = 0}, "CheckOptions::test_count");
  expect_error({.seed = 1, .repeat = 0}, "CheckOptions::repeat");
  expect_error({.seed = 1, .deadline = std::chrono::nanoseconds(0)}, "CheckOptions::deadline");
  expect_error({.seed = 1, .search_budget = 0}, "CheckOptions::search_budget");
  // 2^40 ran for minutes and took half a gigabyte before this limit.
  // (On i386, where size_t is 32 bits, 2^31 stands in for it.)
  constexpr std::size_t huge = std::size_t{1} << (sizeof(std::size_t) >= 8 ? 40 : 31);
  expect_error(
      {.seed = 1, .max_prefix = huge},
      "CheckOptions::max_prefix is " + std::to_string(huge) + ", above the limit of 10000");
  EXPECT_NE(parallel::generate_case(spec, {}, 0).error.find("CheckOptions::seed"),
            std::string::npos);
  EXPECT_EQ(spec.hooks->built.load(), 0);
}

}  // namespace
