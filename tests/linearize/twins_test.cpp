// twins_test.cpp — calls that never returned with equal commands ("twins")
// are placed only in invoke order: a history whose verdict needs the
// earlier twin, one that needs only the later, and many twins decided in
// a handful of steps instead of one state per subset. (The oracle tests in
// history_test.cpp and sequence_test.cpp cover twins at random too: their
// commands compare equal.)
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include <merilo/linearize/history.hpp>
#include <merilo/linearize/models.hpp>

#include "small_models.hpp"

namespace merilo::linearize {
namespace {

using testing::Cmd;
using SmallOp = Operation<Cmd, int>;

SmallOp write(int v, std::int64_t in) { return SmallOp{Cmd{1, v, 0}, std::nullopt, in, kNever}; }
SmallOp read(int got, std::int64_t in, std::int64_t out) {
  return SmallOp{Cmd{0, 0, 0}, got, in, out};
}

Verdict verdict_of(const std::vector<SmallOp>& ops, std::uint64_t budget = 10'000'000) {
  HistoryOptions limits;
  limits.budget = budget;
  return check_history(testing::RegisterSpec{}, testing::Reg{0}, ops, limits).verdict;
}

TEST(HistoryTwins, TheEarlierTwinMayServeARead) {
  // Only the write invoked at 0 can precede the read; its twin comes later.
  std::vector<SmallOp> ops = {write(1, 0), read(1, 10, 20), write(1, 50), read(0, 30, 40)};
  EXPECT_EQ(verdict_of(ops), Verdict::not_linearizable);  // 1 was read: it cannot go back to 0
  ops[3] = read(1, 60, 70);
  EXPECT_EQ(verdict_of(ops), Verdict::linearizable);
}

TEST(HistoryTwins, ALaterTwinIsStillPlacedAfterTheEarlierOne) {
  // The read of 1 comes after both invokes; the read of 0 before either.
  std::vector<SmallOp> ops = {read(0, 0, 1), write(1, 2), write(1, 3), read(1, 10, 11)};
  EXPECT_EQ(verdict_of(ops), Verdict::linearizable);
  // Different commands are not twins: 2 then 1 must both be possible.
  ops = {write(2, 0), write(1, 1), read(2, 5, 6), read(1, 7, 8)};
  EXPECT_EQ(verdict_of(ops), Verdict::linearizable);
}

TEST(HistoryTwins, ManyTwinsAreOneStatePerCount) {
  // Twenty pending writes of 1 and a read of 2 that nothing writes. The
  // search must rule out every way to place the writes before the read:
  // one per subset (a million) without twins, one per count with them.
  std::vector<SmallOp> ops;
  for (std::int64_t i = 0; i < 20; ++i) ops.push_back(write(1, i));
  ops.push_back(read(2, 100, 101));
  EXPECT_EQ(verdict_of(ops, 10'000), Verdict::not_linearizable);
}

}  // namespace
}  // namespace merilo::linearize
