// controlled_check.hpp — the assertions every seeded parallel example
// makes about its bug and its fixed twin, under the controlled scheduler.
//
// A seeded parallel example (bank, counter, set, stack, transfer,
// bounded_queue, treiber, and mutex's racy holder) shows three things with
// `parallel::check` at its default settings: the bug is found at every
// seed from 1 to `kSeeds`, by preemption-bounded search, and shrunk to its
// least case; the failure's pin token replays that case under its failing
// schedule; and the fixed twin passes with every schedule of at most two
// preemptions of every case checked. `expect_found_at_every_seed` and
// `expect_fixed_twin_passes` are those checks, so each example's test only
// states what is particular to it: the tag and the exact shrunk case.
//
// Example:
//
//   TEST(Set, FindsTheDoubleInsert) {
//     examples::expect_found_at_every_seed(
//         set::Spec<set::Bug::double_insert>{}, merilo::parallel::kNotLinearizableTag,
//         [](const auto& f) { EXPECT_EQ(f.shrunk, ...); });
//   }
//   TEST(Set, FixedSetPasses) { examples::expect_fixed_twin_passes(set::Spec<>{}); }
//
// NOTE: this header includes <gtest/gtest.h>; only tests include it.
#ifndef MERILO_EXAMPLES_COMMON_CONTROLLED_CHECK_HPP
#define MERILO_EXAMPLES_COMMON_CONTROLLED_CHECK_HPP

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include <merilo/parallel/parallel.hpp>

namespace examples {

/// The seeds a seeded example's bug must be found at: 1 to kSeeds.
inline constexpr std::uint64_t kSeeds = 20;

/// For every seed 1..kSeeds: `parallel::check(spec, {.seed = seed})` finds
/// a failure tagged `tag` under `Scheduler::preemption_bounded`,
/// `expect(failure)` holds (the example's own assertions, about the shrunk
/// case), and replaying the failure's pin token fails again with the same
/// tag, the same token and (when commands have `==`) the same shrunk case.
template <class S, class Expect>
void expect_found_at_every_seed(const S& spec, std::string_view tag, Expect expect) {
  namespace parallel = merilo::parallel;
  for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const auto r = parallel::check(spec, {.seed = seed});
    ASSERT_TRUE(r.error.empty()) << r.error;
    ASSERT_TRUE(r.failure.has_value()) << "the seeded bug was not found";
    const auto& f = *r.failure;
    EXPECT_EQ(f.violation.tag, tag) << parallel::report(f);
    EXPECT_EQ(f.scheduling.scheduler, parallel::Scheduler::preemption_bounded);
    expect(f);
    const std::string token = parallel::pin_token(f);
    const auto again = parallel::replay(spec, token);
    ASSERT_TRUE(again.error.empty()) << again.error;
    ASSERT_TRUE(again.failure.has_value()) << "the pin " << token << " did not fail";
    EXPECT_EQ(again.failure->violation.tag, tag) << parallel::report(*again.failure);
    if constexpr (std::equality_comparable<parallel::command_t<S>>) {
      EXPECT_EQ(again.failure->shrunk, f.shrunk) << parallel::report(*again.failure);
    }
    EXPECT_EQ(parallel::pin_token(*again.failure), token);
  }
}

/// `parallel::check(spec, {.seed = 1, .test_count = test_count})` passes,
/// every case under preemption-bounded search, with bounds 0, 1 and 2
/// complete in every case (`rounds_done == 3`).
template <class S>
void expect_fixed_twin_passes(const S& spec, std::size_t test_count = 100) {
  namespace parallel = merilo::parallel;
  const auto r = parallel::check(spec, {.seed = 1, .test_count = test_count});
  ASSERT_TRUE(r.ok()) << (r.failure ? parallel::report(*r.failure) : r.error);
  EXPECT_EQ(r.bounded_cases, test_count);
  EXPECT_EQ(r.free_cases, 0U);
  EXPECT_EQ(r.rounds_done, 3U);  // every schedule with <= 2 preemptions of every case
}

}  // namespace examples

#endif  // MERILO_EXAMPLES_COMMON_CONTROLLED_CHECK_HPP
