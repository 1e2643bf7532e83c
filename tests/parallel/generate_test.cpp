// generate_test.cpp — case generation: admissible in every interleaving,
// reproducible from (seed, run), clamped, trimmed, and a case with nothing
// to race reported as parallel.no_race.
#include <algorithm>
#include <cstddef>
#include <vector>

#include <gtest/gtest.h>

#include <merilo/parallel/parallel.hpp>

#include "probe.hpp"

namespace {

namespace parallel = merilo::parallel;
using probe::Op;
using Case = parallel::Case<Op>;

/// Whether every precondition holds in every interleaving of `c`'s
/// branches after its prefix, by listing the interleavings as permutations
/// of branch labels (independent of the library's depth-first search).
bool admitted_everywhere(const probe::Spec& spec, const Case& c) {
  probe::Model m = spec.initial();
  for (Op op : c.prefix) {
    if (spec.precondition(m, op) == merilo::statem::Admission::reject) return false;
    m = spec.next_model(m, op);
  }
  std::vector<std::size_t> labels;
  for (std::size_t b = 0; b < c.branches.size(); ++b)
    labels.insert(labels.end(), c.branches[b].size(), b);
  std::sort(labels.begin(), labels.end());
  do {
    probe::Model at = m;
    std::vector<std::size_t> next(c.branches.size(), 0);
    for (std::size_t b : labels) {
      const Op op = c.branches[b][next[b]++];
      if (spec.precondition(at, op) == merilo::statem::Admission::reject) return false;
      at = spec.next_model(at, op);
    }
  } while (std::next_permutation(labels.begin(), labels.end()));
  return true;
}

std::size_t count(const Case& c, Op op) {
  std::size_t n = 0;
  for (const auto& b : c.branches)
    n += static_cast<std::size_t>(std::count(b.begin(), b.end(), op));
  return n;
}

TEST(ParallelGenerate, TheIndependentCheckRejectsACaseThatFailsInOneInterleaving) {
  const probe::Spec spec;
  // One token, two takes: whichever goes second finds none.
  EXPECT_FALSE(
      admitted_everywhere(spec, Case{.prefix = {Op::add}, .branches = {{Op::take}, {Op::take}}}));
  EXPECT_TRUE(admitted_everywhere(
      spec, Case{.prefix = {Op::add, Op::add}, .branches = {{Op::take}, {Op::take}}}));
}

TEST(ParallelGenerate, EveryCaseIsAdmittedInEveryInterleavingOfItsBranches) {
  const probe::Spec spec;
  std::size_t takes = 0;
  for (std::size_t branches : {2U, 3U}) {
    const parallel::CheckOptions config{.seed = 11, .branches = branches};
    for (std::size_t run = 0; run < 300; ++run) {
      const auto g = parallel::generate_case(spec, config, run);
      ASSERT_TRUE(g.error.empty()) << g.error;
      ASSERT_FALSE(g.crash.has_value());
      EXPECT_TRUE(admitted_everywhere(spec, g.drawn)) << "run " << run;
      EXPECT_GE(g.drawn.branches.size(), 2U);
      EXPECT_LE(g.drawn.branches.size(), branches);
      for (const auto& b : g.drawn.branches) EXPECT_FALSE(b.empty());
      takes += count(g.drawn, Op::take);
    }
  }
  EXPECT_GT(takes, 50U) << "the precondition was never exercised in a branch";
}

TEST(ParallelGenerate, TheSameSeedAndRunDrawTheSameCase) {
  const probe::Spec spec;
  const parallel::CheckOptions config{.seed = 5, .branches = 3};
  std::size_t differing = 0;
  for (std::size_t run = 0; run < 50; ++run) {
    const auto a = parallel::generate_case(spec, config, run);
    const auto b = parallel::generate_case(spec, config, run);
    EXPECT_EQ(a.drawn, b.drawn);
    if (!(a.drawn == parallel::generate_case(spec, config, run + 1).drawn)) ++differing;
  }
  EXPECT_GT(differing, 40U) << "different runs should draw different cases";
}

TEST(ParallelGenerate, GenerateCaseReproducesTheCaseOfAFailingRun) {
  probe::Spec spec;
  spec.hooks->in_finish = [] { return merilo::statem::Violation{"probe.finish", "always"}; };
  const parallel::CheckOptions config{.seed = 99, .test_count = 5, .max_shrinks = 0};
  for (std::size_t run : {0U, 3U, 17U}) {
    const auto r = parallel::check_run(spec, config, run);
    ASSERT_TRUE(r.failure.has_value());
    EXPECT_EQ(r.failure->run, run);
    EXPECT_EQ(r.failure->original, parallel::generate_case(spec, config, run).drawn);
  }
  const auto r = parallel::check(spec, config);
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->original, parallel::generate_case(spec, config, r.failure->run).drawn);
}

TEST(ParallelGenerate, BranchCountAndLengthAreClamped) {
  probe::Spec spec;
  spec.hooks->only_adds = true;  // always admissible, so lengths are as drawn
  bool saw_three = false;
  bool saw_six = false;
  for (std::size_t run = 0; run < 200; ++run) {
    const auto wide =
        parallel::generate_case(spec, {.seed = 3, .branches = 9, .max_branch = 50}, run);
    ASSERT_TRUE(wide.error.empty());
    EXPECT_LE(wide.drawn.branches.size(), parallel::kMaxBranches);
    saw_three = saw_three || wide.drawn.branches.size() == 3;
    for (const auto& b : wide.drawn.branches) {
      EXPECT_LE(b.size(), parallel::kMaxBranchLength);
      saw_six = saw_six || b.size() == 6;
    }
    const auto narrow =
        parallel::generate_case(spec, {.seed = 3, .branches = 0, .max_branch = 0}, run);
    ASSERT_EQ(narrow.drawn.branches.size(), 2U);
    for (const auto& b : narrow.drawn.branches) EXPECT_EQ(b.size(), 1U);
  }
  EXPECT_TRUE(saw_three);
  EXPECT_TRUE(saw_six);
  spec.hooks->in_finish = [] { return merilo::statem::Violation{"probe.finish", "always"}; };
  const auto r =
      parallel::check(spec, {.seed = 3, .branches = 9, .max_branch = 50, .max_shrinks = 0});
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->branches, 3U);
  EXPECT_EQ(r.failure->max_branch, 6U);
}

TEST(ParallelGenerate, BranchesWithTooManyInterleavingsAreTrimmed) {
  probe::Spec spec;
  spec.hooks->only_adds = true;
  const parallel::CheckOptions config{.seed = 8, .branches = 3, .max_branch = 6};
  std::size_t near_cap = 0;
  for (std::size_t run = 0; run < 200; ++run) {
    const auto g = parallel::generate_case(spec, config, run);
    std::vector<std::size_t> lengths;
    for (const auto& b : g.drawn.branches) lengths.push_back(b.size());
    const auto n = parallel::detail::interleavings(lengths, parallel::kMaxInterleavings);
    EXPECT_LE(n, parallel::kMaxInterleavings) << "run " << run;
    if (n > 2'000) ++near_cap;
  }
  // Three branches of up to six commands usually exceed the cap as drawn
  // (6+6+6 has 17 million interleavings); trimmed, they end just below it.
  EXPECT_GT(near_cap, 0U);
}

TEST(ParallelGenerate, InterleavingsAreCountedAndSaturate) {
  using parallel::detail::interleavings;
  EXPECT_EQ(interleavings({2, 2}, 10'000), 6U);
  EXPECT_EQ(interleavings({1, 1, 1}, 10'000), 6U);
  EXPECT_EQ(interleavings({3, 0}, 10'000), 1U);
  EXPECT_EQ(interleavings({6, 6}, 10'000), 924U);
  EXPECT_EQ(interleavings({6, 6, 6}, 10'000), 10'001U);  // 17,153,136 saturates
}

TEST(ParallelGenerate, ACaseWithNothingToRaceFailsAsNoRaceWithoutRunning) {
  probe::Spec spec;
  spec.hooks->single_add = true;  // only one add is ever admitted: no pair can race
  const auto r = parallel::check(spec, {.seed = 4});
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(r.failure.has_value()) << "a spec that admits no race must not pass green";
  EXPECT_EQ(r.failure->violation.tag, parallel::kNoRaceTag);
  EXPECT_EQ(r.failure->evidence, parallel::Evidence::no_race);
  EXPECT_EQ(r.failure->executions, 0U);
  EXPECT_LT(r.failure->shrunk.branches.size(), 2U);
  EXPECT_EQ(spec.hooks->built.load(), 0);
  EXPECT_NE(parallel::report(*r.failure).find("no race"), std::string::npos);
}

TEST(ParallelGenerate, ACrashWhileDrawingIsAStatemCrash) {
  struct Throwing : probe::Spec {
    merilo::statem::Gen<Op> command(const probe::Model&) const {
      throw std::runtime_error("no generator today");
    }
  };
  const auto g = parallel::generate_case(Throwing{}, {.seed = 1}, 0);
  ASSERT_TRUE(g.crash.has_value());
  EXPECT_EQ(g.crash->tag, merilo::statem::kCrashTag);
  EXPECT_NE(g.crash->detail.find("no generator today"), std::string::npos);
  const auto r = parallel::check(Throwing{}, {.seed = 1});
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->violation.tag, merilo::statem::kCrashTag);
  EXPECT_NE(r.failure->violation.detail.find("command"), std::string::npos);
}

}  // namespace
