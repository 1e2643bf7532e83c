// controlled_prefix_test.cpp — a controlled execution runs its prefix on
// branch 0's thread before the race: each way a prefix call can fail there
// (a postcondition, a crash, a call that blocks for ever, a call that never
// reaches a point) is reported in the prefix at the right call, and a
// passing prefix hands the race the model after it. Also: shrink
// candidates are searched only to the failure's own preemption count.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>

#include <merilo/parallel/detail/crew.hpp>
#include <merilo/parallel/detail/execute_inl.hpp>
#include <merilo/parallel/detail/shrink_inl.hpp>
#include <merilo/parallel/parallel.hpp>
#include <merilo/sync/sync.hpp>

#include "controlled_systems.hpp"

namespace {

namespace parallel = merilo::parallel;
namespace detail = merilo::parallel::detail;
namespace st = merilo::statem;
namespace sync = merilo::sync;
using controlled::Value;

/// inc: a counter's fetch_add; relock: locks one mutex twice (blocks for
/// ever); lie: answers -1; crash: throws; spin: blocks until released,
/// reaching no scheduling point.
enum class P : std::uint8_t { inc, relock, lie, crash, spin };
[[nodiscard]] constexpr std::string_view name(P p) noexcept {
  switch (p) {
    case P::inc:
      return "inc";
    case P::relock:
      return "relock";
    case P::lie:
      return "lie";
    case P::crash:
      return "crash";
    case P::spin:
      return "spin";
  }
  return "?";
}

struct Box {
  sync::mutex mu;
  sync::atomic<std::int64_t> n{0};
  std::shared_ptr<std::atomic<bool>> release;
};

struct PrefixSpec {
  using model_type = Value;
  using command_type = P;
  using response_type = std::int64_t;
  using sut_type = std::unique_ptr<Box>;
  std::shared_ptr<std::atomic<bool>> release = std::make_shared<std::atomic<bool>>(false);

  Value initial() const { return {}; }
  st::Gen<P> command(const Value&) const { return st::just(P::inc); }
  st::Admission precondition(const Value&, P) const { return st::Admission::admit; }
  Value next_model(const Value& m, P p) const { return p == P::inc ? Value{m.v + 1} : m; }
  sut_type new_sut() const {
    auto b = std::make_unique<Box>();
    b->release = release;
    return b;
  }
  std::int64_t run(sut_type& b, P p) const {
    switch (p) {
      case P::inc:
        return b->n.fetch_add(1) + 1;
      case P::relock: {
        std::lock_guard one(b->mu);
        std::lock_guard two(b->mu);
        return 0;
      }
      case P::lie:
        return -1;
      case P::crash:
        throw std::runtime_error("boom");
      case P::spin:
        b->release->wait(false);  // blocks, using no CPU, until released
        return 0;
    }
    return 0;
  }
  parallel::MaybeViolation postcondition(const Value& m, P p, std::int64_t got) const {
    const std::int64_t want = p == P::inc ? m.v + 1 : p == P::lie ? m.v : got;
    if (got == want) return std::nullopt;
    return st::Violation{"prefix.value", std::to_string(got) + " != " + std::to_string(want)};
  }
  parallel::MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

using Execution = detail::Execution<P, std::int64_t>;

/// One controlled execution of `c` under the default schedule.
Execution run_controlled(const std::shared_ptr<PrefixSpec>& spec, const parallel::Case<P>& c,
                       std::chrono::nanoseconds deadline = std::chrono::seconds(10)) {
  detail::Crew crew;
  parallel::CheckOptions config{.seed = 1};
  config.deadline = deadline;
  const detail::Chooser chooser({}, detail::Chooser::Then::defaults, 0, c.branches.size(), 0, 0);
  return detail::execute(spec, crew, config, c, &chooser);
}

TEST(ControlledPrefix, APassingPrefixHandsTheRaceTheModelAfterIt) {
  const auto spec = std::make_shared<PrefixSpec>();
  const auto o =
      run_controlled(spec, {.prefix = {P::inc, P::inc}, .branches = {{P::inc}, {P::inc}}});
  EXPECT_FALSE(o.violation) << o.violation->tag << ": " << o.violation->detail;
  ASSERT_EQ(o.prefix_responses.size(), 2U);
  EXPECT_EQ(o.prefix_responses[0], 1);
  EXPECT_EQ(o.prefix_responses[1], 2);
  EXPECT_TRUE(o.controlled);
  EXPECT_EQ(o.evidence, parallel::Evidence::after_race);
}

TEST(ControlledPrefix, APostconditionThatFailsInThePrefixIsReportedAtItsCall) {
  const auto spec = std::make_shared<PrefixSpec>();
  const auto o =
      run_controlled(spec, {.prefix = {P::inc, P::lie, P::inc}, .branches = {{P::inc}, {P::inc}}});
  ASSERT_TRUE(o.violation);
  EXPECT_EQ(o.violation->tag, "prefix.value");
  EXPECT_EQ(o.evidence, parallel::Evidence::in_prefix);
  EXPECT_EQ(o.prefix_step, 1U);
  EXPECT_EQ(o.prefix_responses.size(), 2U);
  EXPECT_FALSE(o.left_alive);
}

TEST(ControlledPrefix, ACrashInThePrefixIsReportedAtItsCallAndTheBranchesDoNotRun) {
  const auto spec = std::make_shared<PrefixSpec>();
  const auto o = run_controlled(
      spec, {.prefix = {P::inc, P::crash, P::inc}, .branches = {{P::inc}, {P::inc}}});
  ASSERT_TRUE(o.violation);
  EXPECT_EQ(o.violation->tag, st::kCrashTag);
  EXPECT_NE(o.violation->detail.find("boom"), std::string::npos) << o.violation->detail;
  EXPECT_EQ(o.evidence, parallel::Evidence::in_prefix);
  EXPECT_EQ(o.prefix_step, 1U);
  EXPECT_EQ(o.prefix_responses.size(), 1U);
  EXPECT_TRUE(o.histories.empty());
}

TEST(ControlledPrefix, APrefixCallThatBlocksForEverIsADeadlockThereAtOnce) {
  const auto spec = std::make_shared<PrefixSpec>();
  const auto o =
      run_controlled(spec, {.prefix = {P::inc, P::relock}, .branches = {{P::inc}, {P::inc}}});
  ASSERT_TRUE(o.violation);
  EXPECT_EQ(o.violation->tag, parallel::kDeadlockTag);
  EXPECT_NE(o.violation->detail.find("prefix call 1 blocks"), std::string::npos)
      << o.violation->detail;
  EXPECT_EQ(o.evidence, parallel::Evidence::in_prefix);
  EXPECT_EQ(o.prefix_step, 1U);
  EXPECT_FALSE(o.left_alive);  // the blocked call was cancelled, not abandoned
}

TEST(ControlledPrefix, APrefixCallThatReachesNoPointTimesOutThereAndLeavesTheSystemAlive) {
  const auto spec = std::make_shared<PrefixSpec>();
  const auto o =
      run_controlled(spec, {.prefix = {P::inc, P::spin}, .branches = {{P::inc}, {P::inc}}},
                     std::chrono::milliseconds(20));
  spec->release->store(true);  // let the abandoned thread go
  spec->release->notify_all();
  ASSERT_TRUE(o.violation);
  EXPECT_EQ(o.violation->tag, parallel::kTimeoutTag);
  EXPECT_NE(o.violation->detail.find("prefix call 1"), std::string::npos) << o.violation->detail;
  EXPECT_EQ(o.evidence, parallel::Evidence::in_prefix);
  EXPECT_EQ(o.prefix_responses.size(), 1U);
  EXPECT_TRUE(o.left_alive);
}

TEST(ControlledPrefix, ShrinkCandidatesAreSearchedToTheFailuresPreemptionCountOnly) {
  parallel::CheckOptions config{.seed = 1};
  parallel::ScheduleStats failed;
  failed.scheduler = parallel::Scheduler::preemption_bounded;
  failed.preemptions = 1;
  EXPECT_EQ(detail::candidate_config(config, failed).preemption_bound, 1U);
  failed.preemptions = 5;  // never above the configured bound
  EXPECT_EQ(detail::candidate_config(config, failed).preemption_bound, 2U);
  failed.scheduler = parallel::Scheduler::stress;
  failed.preemptions = 0;
  EXPECT_EQ(detail::candidate_config(config, failed).preemption_bound, 2U);
}

TEST(ControlledPrefix, TheLostUpdateShrinksWithCandidatesSearchedToOnePreemption) {
  const auto r = parallel::check(controlled::CounterSpec{.racy = true}, {.seed = 1});
  ASSERT_TRUE(r.failure.has_value());
  const auto& f = *r.failure;
  EXPECT_EQ(f.scheduling.preemptions, 1U);
  // The shrunk case's own search stopped in round 1 at the latest: its
  // candidates were never given round 2.
  EXPECT_LE(f.scheduling.per_round.size(), 2U);
}

}  // namespace
