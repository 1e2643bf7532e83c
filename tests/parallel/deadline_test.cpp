// deadline_test.cpp — no case can hang the check: a `run` or `finish` that
// never returns is a `parallel.timeout` wherever it happens (in the race of the
// drawn case, in its prefix, in a shrink candidate, in `finish`), and the
// deadline's arithmetic saturates instead of overflowing.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <merilo/parallel/detail/execute_inl.hpp>
#include <merilo/parallel/parallel.hpp>

#include "probe.hpp"

namespace {

namespace parallel = merilo::parallel;
using probe::Op;
using Clock = std::chrono::steady_clock;

/// Blocks the calls it is asked to until released; the blocked threads are
/// abandoned by the check, and released (so they exit) when this ends.
class Trap {
 public:
  Trap() = default;
  Trap(const Trap&) = delete;
  Trap& operator=(const Trap&) = delete;
  ~Trap() {
    release_->store(true);
    release_->notify_all();
  }

  /// Blocks `run` of `op` on `spec`'s systems.
  void on_run(probe::Spec& spec, Op op) const {
    spec.hooks->in_run = [op, release = release_, caught = caught_](Op got) {
      if (got == op) hold(*release, *caught);
    };
  }
  /// Blocks `finish` on `spec`'s systems.
  void on_finish(probe::Spec& spec) const {
    spec.hooks->in_finish = [release = release_,
                             caught = caught_]() -> merilo::parallel::MaybeViolation {
      hold(*release, *caught);
      return std::nullopt;
    };
  }
  /// Calls blocked so far.
  [[nodiscard]] int caught() const { return caught_->load(); }
  /// Waits (untimed) until a call is blocked: for a call that must reach
  /// the trap sooner or later, however slowly its thread is run.
  void wait_caught() const {
    for (int seen = caught_->load(); seen == 0; seen = caught_->load()) caught_->wait(seen);
  }

 private:
  static void hold(const std::atomic<bool>& release, std::atomic<int>& caught) {
    caught.fetch_add(1);
    caught.notify_all();
    release.wait(false);  // a call that never returns, until the trap is gone
  }
  std::shared_ptr<std::atomic<bool>> release_ = std::make_shared<std::atomic<bool>>(false);
  std::shared_ptr<std::atomic<int>> caught_ = std::make_shared<std::atomic<int>>(0);
};

constexpr auto kShort = std::chrono::milliseconds(20);

TEST(ParallelDeadline, ARunThatNeverReturnsInTheDrawnCasesRaceTimesOut) {
  // Nothing here depends on how fast the threads run: on a loaded machine
  // the deadline may pass before a branch reaches its read (or before its
  // thread starts), so the claims are the ones that hold either way. A
  // branch holding a read can never finish, so it is unfinished whatever
  // else was; and its abandoned thread reaches the trap sooner or later.
  probe::Spec spec;
  Trap trap;
  trap.on_run(spec, Op::read);
  const parallel::CheckOptions config{
      .seed = 2, .max_prefix = 0, .max_shrinks = 0, .repeat = 1, .deadline = kShort};
  const auto drawn = parallel::generate_case(spec, config, 0).drawn;
  std::vector<std::size_t> reading;
  for (std::size_t b = 0; b < drawn.branches.size(); ++b) {
    if (std::find(drawn.branches[b].begin(), drawn.branches[b].end(), Op::read) !=
        drawn.branches[b].end()) {
      reading.push_back(b);
    }
  }
  ASSERT_FALSE(reading.empty()) << "seed 2 no longer draws a read in a branch: pick another";
  const auto r = parallel::check(spec, config);
  ASSERT_TRUE(r.failure.has_value()) << r.error;
  const auto& f = *r.failure;
  EXPECT_EQ(f.violation.tag, parallel::kTimeoutTag) << parallel::report(f);
  EXPECT_EQ(f.evidence, parallel::Evidence::unrecorded);
  ASSERT_EQ(f.shrunk, drawn);  // max_shrinks = 0
  for (std::size_t b : reading) {
    EXPECT_NE(std::find(f.unfinished.begin(), f.unfinished.end(), b), f.unfinished.end())
        << "branch " << b << " holds a read that never returns\n"
        << parallel::report(f);
  }
  EXPECT_TRUE(f.system_left_alive);
  trap.wait_caught();  // the stuck call is the trapped read (else this never returns)
  EXPECT_GT(trap.caught(), 0);
}

TEST(ParallelDeadline, ARunThatNeverReturnsInThePrefixTimesOutInThePrefix) {
  probe::Spec spec;
  Trap trap;
  trap.on_run(spec, Op::read);
  parallel::CheckOptions config = probe::with_read_in_prefix({.max_shrinks = 0, .repeat = 1});
  config.deadline = kShort;
  const auto drawn = parallel::generate_case(spec, config, 0).drawn;
  const auto r = parallel::check(spec, config);
  ASSERT_TRUE(r.failure.has_value()) << r.error;
  const auto& f = *r.failure;
  EXPECT_EQ(f.violation.tag, parallel::kTimeoutTag) << parallel::report(f);
  EXPECT_EQ(f.evidence, parallel::Evidence::in_prefix);
  std::size_t first = 0;
  while (drawn.prefix[first] != Op::read) ++first;
  EXPECT_EQ(f.prefix_step, first);
  EXPECT_EQ(f.prefix_responses.size(), first);
  EXPECT_TRUE(f.system_left_alive);
  EXPECT_NE(f.violation.detail.find("prefix call " + std::to_string(first)), std::string::npos)
      << f.violation.detail;
  const std::string report = parallel::report(f);
  EXPECT_NE(report.find("evidence: in the prefix"), std::string::npos) << report;
  EXPECT_NE(report.find("left alive"), std::string::npos) << report;
  EXPECT_EQ(spec.hooks->torn_down.load(), 0);  // never torn down under the stuck call
}

TEST(ParallelDeadline, AShrinkCandidateThatMovesAHangingCallIntoThePrefixTimesOutThere) {
  // The reported hang: the race times out, and shrinking moves the stuck
  // read to the prefix, which had no deadline.
  probe::Spec spec;
  Trap trap;
  trap.on_run(spec, Op::read);
  const auto r = parallel::check(spec, {.seed = 2,
                                        .max_prefix = 0,
                                        .max_shrinks = 200,
                                        .shrink_retries = 1,
                                        .repeat = 1,
                                        .deadline = kShort});
  ASSERT_TRUE(r.failure.has_value()) << r.error;
  const auto& f = *r.failure;
  EXPECT_EQ(f.violation.tag, parallel::kTimeoutTag) << parallel::report(f);
  EXPECT_EQ(f.original.prefix.size(), 0U);
  EXPECT_GT(f.shrinks, 0U);
  EXPECT_EQ(f.shrunk, (parallel::Case<Op>{.prefix = {Op::read}, .branches = {}}))
      << parallel::report(f);
  EXPECT_EQ(f.evidence, parallel::Evidence::in_prefix);
  EXPECT_EQ(f.prefix_step, 0U);
  EXPECT_TRUE(f.system_left_alive);
}

TEST(ParallelDeadline, AFinishThatNeverReturnsTimesOutAfterTheRace) {
  probe::Spec spec;
  Trap trap;
  trap.on_finish(spec);
  const auto r = parallel::check(spec, {.seed = 4, .max_shrinks = 3, .deadline = kShort});
  ASSERT_TRUE(r.failure.has_value()) << r.error;
  const auto& f = *r.failure;
  EXPECT_EQ(f.violation.tag, parallel::kTimeoutTag) << parallel::report(f);
  EXPECT_NE(f.violation.detail.find("finish still running"), std::string::npos)
      << f.violation.detail;
  EXPECT_EQ(f.evidence, parallel::Evidence::after_race);
  EXPECT_TRUE(f.system_left_alive);
  EXPECT_GT(trap.caught(), 0);
}

TEST(ParallelDeadline, TheLargestDeadlineMeansNoDeadlineAndRacesStillFinish) {
  // now() + nanoseconds::max() overflowed (UBSan) and wrapped into the
  // past, so every race timed out at once.
  probe::Spec spec;
  const auto r = parallel::check(
      spec, {.seed = 21, .test_count = 30, .deadline = std::chrono::nanoseconds::max()});
  EXPECT_TRUE(r.ok()) << (r.failure ? parallel::report(*r.failure) : r.error);
  EXPECT_EQ(r.runs, 30U);
}

TEST(ParallelDeadline, DeadlineArithmeticSaturatesAtTheClocksEnd) {
  namespace detail = merilo::parallel::detail;
  const Clock::time_point now = Clock::now();
  EXPECT_EQ(detail::deadline_after(now, std::chrono::nanoseconds::max()), Clock::time_point::max());
  EXPECT_EQ(detail::deadline_after(Clock::time_point::max(), std::chrono::nanoseconds(1)),
            Clock::time_point::max());
  EXPECT_EQ(detail::deadline_after(now, std::chrono::seconds(3)), now + std::chrono::seconds(3));
}

}  // namespace
