// controlled_check.hpp — the assertions every seeded parallel example
// makes about its bug and its fixed twin, under the controlled scheduler.
//
// A seeded parallel example (bank, counter, set, stack, transfer,
// bounded_queue, treiber, quiescent, and mutex's racy holder) shows three things with
// `parallel::check` at its default settings: the bug is found at every
// seed from 1 to `kSeeds` (20; `MERILO_EXAMPLE_SEEDS` lowers it), by
// preemption-bounded search, and shrunk to its least case or, at some
// seeds, to a known slightly larger case where the shrinker (which deletes
// and moves calls one at a time and keeps their values) stops; the failure's pin token replays that
// case under its failing schedule; and the fixed twin passes with every schedule of at most two
// preemptions of every case checked. `expect_found_at_every_seed` and
// `expect_fixed_twin_passes` are those checks, so each example's test only
// states what is particular to it: the tag and the exact shrunk cases.
//
// Example:
//
//   TEST(Set, FindsTheDoubleInsert) {
//     const std::size_t least = examples::expect_found_at_every_seed(
//         set::Spec<set::Bug::double_insert>{}, merilo::parallel::kNotLinearizableTag,
//         [](const auto& f) { EXPECT_EQ(f.shrunk, ...); return true; });
//     EXPECT_EQ(least, examples::kSeeds);
//   }
//   TEST(Set, FixedSetPasses) { examples::expect_fixed_twin_passes(set::Spec<>{}); }
//
// NOTE: this header includes <gtest/gtest.h>; only tests include it.
#ifndef MERILO_EXAMPLES_COMMON_CONTROLLED_CHECK_HPP
#define MERILO_EXAMPLES_COMMON_CONTROLLED_CHECK_HPP

#include <charconv>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <system_error>

#include <gtest/gtest.h>

#include <merilo/parallel/parallel.hpp>

namespace examples {

/// How many seeds a seeded example's bug is checked at by default.
inline constexpr std::uint64_t kDefaultSeeds = 20;

/// The environment variable that lowers the seed count: `make ci` sets it
/// to 5 in the sanitized and coverage builds, where each controlled search
/// costs several times what it does in `make test`.
inline constexpr const char* kSeedsVariable = "MERILO_EXAMPLE_SEEDS";

/// The seed count: `MERILO_EXAMPLE_SEEDS` when it is a number from 1 to
/// kDefaultSeeds, kDefaultSeeds when it is unset. Anything else is a
/// mistake in the caller's setup, so the test program stops and names it.
inline std::uint64_t seeds_from_environment() {
  const char* text = std::getenv(kSeedsVariable);
  if (text == nullptr) return kDefaultSeeds;
  std::uint64_t n = 0;
  const char* end = text + std::strlen(text);
  const auto [rest, ec] = std::from_chars(text, end, n);
  if (ec != std::errc{} || rest != end || n == 0 || n > kDefaultSeeds) {
    std::fprintf(stderr, "%s=%s: expected a whole number from 1 to %llu\n", kSeedsVariable, text,
                 static_cast<unsigned long long>(kDefaultSeeds));
    std::exit(2);
  }
  return n;
}

/// The seeds a seeded example's bug must be found at: 1 to kSeeds
/// (kDefaultSeeds unless `MERILO_EXAMPLE_SEEDS` says fewer).
inline const std::uint64_t kSeeds = seeds_from_environment();

/// How many of the kSeeds seeds must reach the least case, for an example
/// whose test demands `at_default` of kDefaultSeeds: `at_default` itself at
/// the default count; with fewer seeds, as many misses as the default
/// allows and no more (seeds 1..5 are not a fifth of seeds 1..20's luck).
inline std::size_t least_floor(std::size_t at_default) {
  const std::size_t misses = kDefaultSeeds > at_default ? kDefaultSeeds - at_default : 0;
  const auto seeds = static_cast<std::size_t>(kSeeds);
  return seeds > misses ? seeds - misses : 0;
}

/// For every seed 1..kSeeds: `parallel::check(spec, {.seed = seed})` finds
/// a failure tagged `tag` under `Scheduler::preemption_bounded`, at the
/// fewest preemptions that fail (every round before the failing one
/// passed), `least(failure)` holds its assertions about the shrunk case,
/// and replaying the failure's pin token fails again with the same tag, the
/// same token and (when commands have `==`) the same shrunk case.
/// `least` returns whether the shrunk case is the example's least case
/// (else it has checked that it is one of the known larger neighbours the
/// shrinker can stop at); the count of seeds that reached it is returned.
template <class S, class Least>
std::size_t expect_found_at_every_seed(const S& spec, std::string_view tag, Least least) {
  namespace parallel = merilo::parallel;
  std::size_t reached = 0;
  for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const auto r = parallel::check(spec, {.seed = seed});
    if (!r.error.empty()) {
      ADD_FAILURE() << r.error;
      continue;
    }
    if (!r.failure) {
      ADD_FAILURE() << "the seeded bug was not found";
      continue;
    }
    const auto& f = *r.failure;
    EXPECT_EQ(f.violation.tag, tag) << parallel::report(f);
    EXPECT_EQ(f.scheduling.scheduler, parallel::Scheduler::preemption_bounded);
    EXPECT_EQ(f.scheduling.rounds_done, f.scheduling.preemptions) << parallel::report(f);
    if (least(f)) ++reached;
    const std::string token = parallel::pin_token(f);
    const auto again = parallel::replay(spec, token);
    if (!again.error.empty() || !again.failure) {
      ADD_FAILURE() << "the pin " << token << " did not fail: " << again.error;
      continue;
    }
    EXPECT_EQ(again.failure->violation.tag, tag) << parallel::report(*again.failure);
    if constexpr (std::equality_comparable<parallel::command_t<S>>) {
      EXPECT_EQ(again.failure->shrunk, f.shrunk) << parallel::report(*again.failure);
    }
    EXPECT_EQ(parallel::pin_token(*again.failure), token);
  }
  return reached;
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
