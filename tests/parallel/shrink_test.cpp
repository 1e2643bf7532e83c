// shrink_test.cpp — the shrink candidates of a case, in the order they are
// tried: drop a branch, merge two, delete from a branch, delete from the
// prefix, delete neighbouring pairs from the prefix and from a branch,
// move a branch's head into the prefix.
#include <vector>

#include <gtest/gtest.h>

#include <merilo/parallel/shrink.hpp>

namespace {

namespace parallel = merilo::parallel;
using Case = parallel::Case<int>;

TEST(ParallelShrink, CandidatesComeInTheReferenceOrder) {
  const Case c{.prefix = {1}, .branches = {{2, 3}, {4}, {5}}};
  const std::vector<Case> want = {
      // drop a branch (three branches, so each may go)
      {{1}, {{4}, {5}}},
      {{1}, {{2, 3}, {5}}},
      {{1}, {{2, 3}, {4}}},
      // merge two branches (i < j, j appended to i)
      {{1}, {{2, 3, 4}, {5}}},
      {{1}, {{2, 3, 5}, {4}}},
      {{1}, {{2, 3}, {4, 5}}},
      // delete one command from a branch (an emptied branch disappears)
      {{1}, {{3}, {4}, {5}}},
      {{1}, {{2}, {4}, {5}}},
      {{1}, {{2, 3}, {5}}},
      {{1}, {{2, 3}, {4}}},
      // delete from the prefix
      {{}, {{2, 3}, {4}, {5}}},
      // delete two neighbouring commands from a branch (emptied: it goes)
      {{1}, {{4}, {5}}},
      // move a branch's first command to the end of the prefix
      {{1, 2}, {{3}, {4}, {5}}},
      {{1, 4}, {{2, 3}, {5}}},
      {{1, 5}, {{2, 3}, {4}}},
  };
  EXPECT_EQ(parallel::shrink_candidates(c), want);
}

TEST(ParallelShrink, TwoBranchesAreNeverDroppedButMayBeMerged) {
  const Case c{.prefix = {}, .branches = {{1}, {2}}};
  const std::vector<Case> want = {
      {{}, {{1, 2}}},  // merge: one branch left
      {{}, {{2}}},     // delete 1
      {{}, {{1}}},     // delete 2
      {{1}, {{2}}},    // move 1 into the prefix
      {{2}, {{1}}},    // move 2 into the prefix
  };
  EXPECT_EQ(parallel::shrink_candidates(c), want);
}

TEST(ParallelShrink, NeighbouringPrefixCommandsAreDeletedInPairsAfterSingleDeletions) {
  // A push and the pop after it change nothing together, but either alone
  // changes the state the race starts from: only the pair can go.
  const Case c{.prefix = {1, 2, 3}, .branches = {{4}, {5}}};
  const std::vector<Case> want = {
      {{1, 2, 3}, {{4, 5}}},  // merge
      {{1, 2, 3}, {{5}}},     // delete 4
      {{1, 2, 3}, {{4}}},     // delete 5
      {{2, 3}, {{4}, {5}}},   // delete one prefix command
      {{1, 3}, {{4}, {5}}},  {{1, 2}, {{4}, {5}}},
      {{3}, {{4}, {5}}},                             // delete two neighbouring prefix commands
      {{1}, {{4}, {5}}},     {{1, 2, 3, 4}, {{5}}},  // move a branch head into the prefix
      {{1, 2, 3, 5}, {{4}}},
  };
  EXPECT_EQ(parallel::shrink_candidates(c), want);
}

TEST(ParallelShrink, NeighbouringBranchCommandsAreDeletedInPairsAfterThePrefixPairs) {
  // The Treiber stack's ABA at seed 17 stopped at "push 8 | pop | pop,
  // push 2, push 3, pop": each single deletion from the long branch needs
  // two preemptions to fail, the least case "push 8 | pop | pop, push 2"
  // (push 3 and the pop after it deleted together) needs one.
  const Case c{.prefix = {1}, .branches = {{2}, {3, 4, 5, 6}}};
  const std::vector<Case> want = {
      {{1}, {{2, 3, 4, 5, 6}}},  // merge
      {{1}, {{3, 4, 5, 6}}},     // delete one command from a branch
      {{1}, {{2}, {4, 5, 6}}},    {{1}, {{2}, {3, 5, 6}}},
      {{1}, {{2}, {3, 4, 6}}},    {{1}, {{2}, {3, 4, 5}}},
      {{}, {{2}, {3, 4, 5, 6}}},  // delete the prefix command
      {{1}, {{2}, {5, 6}}},       // delete two neighbouring branch commands
      {{1}, {{2}, {3, 6}}},       {{1}, {{2}, {3, 4}}},
      {{1, 2}, {{3, 4, 5, 6}}},  // move a branch head into the prefix
      {{1, 3}, {{2}, {4, 5, 6}}},
  };
  EXPECT_EQ(parallel::shrink_candidates(c), want);
}

TEST(ParallelShrink, AnEmptyCaseHasNoCandidates) {
  EXPECT_TRUE(parallel::shrink_candidates(Case{}).empty());
}

}  // namespace
