// concurrent_queue_test.cpp — moodycamel::ConcurrentQueue behind a batching
// mailbox, checked in stress mode: the fixed mailbox passes at the default
// config (which picks stress, since nothing in it is merilo::sync) and
// with `scheduler = stress` said outright, on two and three branches; the
// unlocked fetch is found (by chance: seeds are tried until one finds it)
// and shrunk towards its least case, two posts in the prefix and a take
// per branch, where one take fetches both items and the other finds the
// queue empty while the second is still to be handed out.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <concurrent_queue/spec.hpp>
#include <merilo/parallel/parallel.hpp>

namespace {

namespace parallel = merilo::parallel;
namespace cq = concurrent_queue;

TEST(ConcurrentQueue, FixedMailboxPassesAtTheDefaultConfigWhichRunsItInStressMode) {
  for (std::uint64_t seed = 1; seed <= 2; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const auto r = parallel::check(cq::Spec<cq::Bug::none>{}, {.seed = seed});
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_FALSE(r.failure.has_value()) << parallel::report(*r.failure);
    // No case reached a merilo::sync operation, so none was controlled.
    EXPECT_EQ(r.runs, 100U);
    EXPECT_EQ(r.free_cases, r.runs);
    EXPECT_EQ(r.bounded_cases, 0U);
    // Stress mode runs each case at least `repeat` times, until 20 ms passed.
    EXPECT_GE(r.executions, 3 * r.runs);
  }
}

TEST(ConcurrentQueue, FixedMailboxPassesInStressModeWithThreeBranches) {
  const auto r =
      parallel::check(cq::Spec<cq::Bug::none>{},
                      {.seed = 7, .branches = 3, .scheduler = parallel::Scheduler::stress});
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_FALSE(r.failure.has_value()) << parallel::report(*r.failure);
  EXPECT_EQ(r.free_cases, r.runs);
}

// The calls of a case, all branches and the prefix.
std::size_t calls(const parallel::Case<cq::Op>& c) {
  std::size_t n = c.prefix.size();
  for (const auto& branch : c.branches) n += branch.size();
  return n;
}

// How many of a case's calls are takes.
std::size_t takes(const parallel::Case<cq::Op>& c) {
  std::size_t n = 0;
  for (const cq::Op& op : c.prefix) n += op.post ? 0 : 1;
  for (const auto& branch : c.branches) {
    for (const cq::Op& op : branch) n += op.post ? 0 : 1;
  }
  return n;
}

TEST(ConcurrentQueue, StressModeFindsTheUnlockedFetchAndShrinksIt) {
  // A stress run meets the window by chance, not by search: seeds are tried
  // until one finds it. Seen: 9 of seeds 1..20 find it with 100 cases each,
  // so twenty seeds all missing is a one-in-a-million event.
  std::optional<parallel::Failure<cq::Op, std::optional<std::int64_t>>> found;
  for (std::uint64_t seed = 1; seed <= 20 && !found; ++seed) {
    const auto r = parallel::check(cq::Spec<cq::Bug::unlocked_fetch>{},
                                   {.seed = seed, .scheduler = parallel::Scheduler::stress});
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_EQ(r.bounded_cases, 0U);
    found = r.failure;
  }
  ASSERT_TRUE(found.has_value()) << "the unlocked fetch was not found at seeds 1..20";
  const auto& f = *found;
  EXPECT_EQ(f.violation.tag, parallel::kNotLinearizableTag) << parallel::report(f);
  EXPECT_EQ(f.scheduling.scheduler, parallel::Scheduler::stress) << parallel::report(f);
  ASSERT_EQ(f.shrunk.branches.size(), 2U) << parallel::report(f);
  // The bug needs two takes at once and two items fetched in one batch: the
  // least case is two posts in the prefix and a take per branch. Shrinking
  // in stress mode keeps a candidate only when one of its reruns fails by
  // chance, so it may stop larger (seen: 4 to 12 calls), never smaller.
  EXPECT_GE(takes(f.shrunk), 2U) << parallel::report(f);
  EXPECT_GE(calls(f.shrunk) - takes(f.shrunk), 2U) << parallel::report(f);
  EXPECT_LE(calls(f.shrunk), calls(f.original)) << parallel::report(f);
  // The checker says which take broke a producer's order.
  EXPECT_NE(parallel::report(f).find("mailbox.order"), std::string::npos) << parallel::report(f);
}

}  // namespace
