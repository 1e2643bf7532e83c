// The memory model against a brute-force RC11 checker (rc11_reference.hpp)
// on a few hundred small programs drawn from fixed seeds: relaxed,
// release/acquire and seq_cst accesses, read-modify-writes,
// compare-exchanges and fences on two locations. The model produces
// exactly the outcomes RC11 allows: none it forbids (no false alarm), and
// every one it allows (no miss; these programs stay below
// kExactPscEvents seq_cst events).
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "litmus.hpp"
#include "random_programs.hpp"
#include "rc11_reference.hpp"

namespace merilo::sync::litmus {
namespace {

void compare(const Program& p) {
  const std::vector<std::string> observe = observables(p);
  const Result model = enumerate(p, observe);
  ASSERT_EQ(model.error, "") << text(p);
  const rc11::Reference ref = rc11::reference(p, observe);
  for (const auto& [o, execution] : model.outcomes) {
    EXPECT_TRUE(ref.consistent.contains(o))
        << "the model produced {" << o << "}, which RC11 forbids, for\n"
        << text(p) << "by this execution:\n"
        << execution;
  }
  for (const std::string& o : ref.consistent) {
    EXPECT_TRUE(model.outcomes.contains(o))
        << "the model missed {" << o << "}, which RC11 allows, for\n"
        << text(p);
  }
}

TEST(MemoryModelAgainstRc11, TheHandWrittenSuiteAgreesWithTheReference) {
  // The reference itself, on shapes whose verdicts are known: SB seq_cst
  // and IRIW with seq_cst fences forbid their weak outcome, MP relaxed and
  // 2+2W release allow theirs.
  const Program sb{"SB",
                   {"x", "y"},
                   {{st("x", 1, sc), ld("r1", "y", sc)}, {st("y", 1, sc), ld("r2", "x", sc)}},
                   {}};
  EXPECT_FALSE(rc11::reference(sb, {"r1", "r2"}).consistent.contains("r1=0 r2=0"));
  const Program sb_rlx{
      "SB",
      {"x", "y"},
      {{st("x", 1, rlx), ld("r1", "y", rlx)}, {st("y", 1, rlx), ld("r2", "x", rlx)}},
      {}};
  EXPECT_TRUE(rc11::reference(sb_rlx, {"r1", "r2"}).consistent.contains("r1=0 r2=0"));
  const Program iriw{"IRIW",
                     {"x", "y"},
                     {{st("x", 1, rlx)},
                      {st("y", 1, rlx)},
                      {ld("r1", "x", rlx), fence(sc), ld("r2", "y", rlx)},
                      {ld("r3", "y", rlx), fence(sc), ld("r4", "x", rlx)}},
                     {}};
  EXPECT_FALSE(
      rc11::reference(iriw, {"r1", "r2", "r3", "r4"}).consistent.contains("r1=1 r2=0 r3=1 r4=0"));
  const Program w22{"2+2W",
                    {"x", "y"},
                    {{st("x", 1, rel), st("y", 2, rel)}, {st("y", 1, rel), st("x", 2, rel)}},
                    {}};
  EXPECT_TRUE(rc11::reference(w22, {"x", "y"}).consistent.contains("x=1 y=1"));
  // Allowed by RC11 only with psc against po ∪ rf (the model's search
  // finds them; a model taking the run order as psc would not).
  const Program miss{"WRC+sc-ends",
                     {"x", "y"},
                     {{st("x", 1, sc)},
                      {ld("r1", "x", rlx), st("y", 1, rlx)},
                      {ld("r2", "y", rlx), ld("r3", "x", sc)}},
                     {}};
  const rc11::Reference mp_sc_data = rc11::reference(
      Program{"MP",
              {"x", "y"},
              {{st("x", 1, sc), st("y", 1, rlx)}, {ld("r1", "y", rlx), ld("r2", "x", sc)}},
              {}},
      {"r1", "r2"});
  EXPECT_TRUE(mp_sc_data.consistent.contains("r1=1 r2=0"));
  EXPECT_FALSE(mp_sc_data.ordered.contains("r1=1 r2=0"));
  const rc11::Reference m = rc11::reference(miss, {"r1", "r2", "r3"});
  EXPECT_TRUE(m.consistent.contains("r1=1 r2=1 r3=0"));
  EXPECT_FALSE(m.ordered.contains("r1=1 r2=1 r3=0"));
}

TEST(MemoryModelAgainstRc11, RandomProgramsGetExactlyTheOutcomesRc11Allows) {
  for (std::uint64_t seed = 1; seed <= 600; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    compare(random_program(seed, 7));
    if (HasFailure()) return;
  }
}

}  // namespace
}  // namespace merilo::sync::litmus
