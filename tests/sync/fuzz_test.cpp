// The schedule fuzzer's side of sync::model: fuzzer bytes choose an
// execution, every input runs, the seeds reach every reads-from pair the
// search reached, and a failing input's pin replays under model.
#include <merilo/sync/fuzz.hpp>

#include <cstdint>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include <merilo/core/hash.hpp>

namespace {

namespace ms = merilo::sync;
constexpr auto relaxed = std::memory_order_relaxed;

void relaxed_message_passing() {
  ms::atomic<int> data{0};
  ms::atomic<int> flag{0};
  ms::thread writer([&] {
    data.store(42, relaxed);
    flag.store(1, relaxed);
  });
  if (flag.load(relaxed) == 1) MERILO_SYNC_ASSERT(data.load(relaxed) == 42);
  writer.join();
}

TEST(ScheduleFuzz, TheEmptyInputIsTheDefaultSchedule) {
  const ms::FuzzRun run = ms::run_input({}, relaxed_message_passing, {});
  EXPECT_TRUE(run.result.passed()) << run.result.report();
  EXPECT_EQ(run.result.executions, 1U);
  EXPECT_EQ(run.reads_from.size(), 1U);  // the flag's load read the initial store
}

TEST(ScheduleFuzz, EveryInputRunsAndTheSameInputRunsTheSameExecution) {
  merilo::core::SplitMix64 rng(7);
  for (int i = 0; i < 200; ++i) {
    std::vector<std::uint8_t> input(rng.below(12));
    for (auto& b : input) b = static_cast<std::uint8_t>(rng.next());
    const ms::FuzzRun a = ms::run_input({}, relaxed_message_passing, input);
    const ms::FuzzRun b = ms::run_input({}, relaxed_message_passing, input);
    ASSERT_TRUE(a.result.error.empty()) << a.result.error;
    EXPECT_EQ(a.reads_from, b.reads_from);
    EXPECT_EQ(a.result.failure.has_value(), b.result.failure.has_value());
  }
}

TEST(ScheduleFuzz, TheSeedsReachEveryReadsFromPairTheSearchReachesAndTheBug) {
  const auto seeds = ms::seed_inputs({}, relaxed_message_passing).inputs;
  ASSERT_FALSE(seeds.empty());
  std::set<std::uint64_t> pairs;
  bool failed = false;
  for (const auto& seed : seeds) {
    const ms::FuzzRun run = ms::run_input({}, relaxed_message_passing, seed);
    pairs.insert(run.reads_from.begin(), run.reads_from.end());
    failed = failed || run.result.failure.has_value();
  }
  EXPECT_TRUE(failed) << "no seed reproduces the relaxed message-passing bug";
  // The flag read 0 or 1; the data, when read, 0 or 42: four pairs.
  EXPECT_EQ(pairs.size(), 4U);
}

TEST(ScheduleFuzz, AFailingInputsPinReplaysUnderModel) {
  for (const auto& seed : ms::seed_inputs({}, relaxed_message_passing).inputs) {
    const ms::FuzzRun run = ms::run_input({}, relaxed_message_passing, seed);
    if (!run.result.failure) continue;
    ms::ModelOptions pinned;
    pinned.replay = run.result.failure->pin;
    const ms::ModelResult again = ms::model(pinned, relaxed_message_passing);
    ASSERT_TRUE(again.failure) << again.report();
    EXPECT_EQ(again.failure->timeline, run.result.failure->timeline);
    return;
  }
  FAIL() << "no seed failed";
}

}  // namespace

// --- feedback without the memory model, and (thread, point) coverage --------

namespace {

/// An input that runs the writer first (thread 1 at each choice).
const std::vector<std::uint8_t> kWriterFirst = {1, 1, 1};

ms::ModelOptions sequentially_consistent() {
  ms::ModelOptions o;
  o.memory_model = false;
  return o;
}

}  // namespace

TEST(ScheduleFuzz, WithoutTheMemoryModelEachLoadStillNamesTheStoreItRead) {
  const ms::ModelOptions sc = sequentially_consistent();
  const ms::FuzzRun first = ms::run_input(sc, relaxed_message_passing, {});
  ASSERT_TRUE(first.result.passed()) << first.result.report();
  EXPECT_EQ(first.reads_from.size(), 1U);  // the flag's load read the initial store
  // The same default schedule under the memory model reads the same stores.
  EXPECT_EQ(first.reads_from, ms::run_input({}, relaxed_message_passing, {}).reads_from);
  // The writer first: the flag's load reads its store, then the data's.
  const ms::FuzzRun writer_first = ms::run_input(sc, relaxed_message_passing, kWriterFirst);
  ASSERT_TRUE(writer_first.result.passed()) << writer_first.result.report();
  EXPECT_EQ(writer_first.reads_from.size(), 2U);
  EXPECT_NE(writer_first.reads_from.front(), first.reads_from.front());
}

TEST(ScheduleFuzz, PointsNameEveryStepAndChangeWithTheSchedule) {
  const ms::ModelOptions sc = sequentially_consistent();
  const ms::FuzzRun a = ms::run_input(sc, relaxed_message_passing, {});
  const ms::FuzzRun again = ms::run_input(sc, relaxed_message_passing, {});
  const ms::FuzzRun b = ms::run_input(sc, relaxed_message_passing, kWriterFirst);
  EXPECT_FALSE(a.points.empty());
  EXPECT_EQ(a.points, again.points);
  const std::set<std::uint64_t> in_a(a.points.begin(), a.points.end());
  const std::set<std::uint64_t> in_b(b.points.begin(), b.points.end());
  EXPECT_NE(in_a, in_b) << "a switch to the writer is a new (thread, point) pair";
}

TEST(ScheduleFuzz, TheFuzzerKeepsInputsWithNewCoverageAlsoWithoutTheMemoryModel) {
  ms::ModelOptions sc = sequentially_consistent();
  sc.max_executions = 200;
  const ms::FuzzResult r = ms::fuzz(sc, relaxed_message_passing, {});
  EXPECT_TRUE(r.result.passed()) << r.result.report();  // no bug without weak memory
  EXPECT_EQ(r.result.executions, 200U);
  EXPECT_GT(r.corpus, 1U) << "no input was new: the feedback is empty";
}

TEST(ScheduleFuzz, TheFuzzerFindsTheRelaxedBugFromTheEmptyInput) {
  ms::ModelOptions o;
  o.max_executions = 2000;
  const ms::FuzzResult r = ms::fuzz(o, relaxed_message_passing, {});
  ASSERT_TRUE(r.result.failure) << r.result.summary();
  EXPECT_EQ(r.result.failure->found_by, "fuzzer");
  ms::ModelOptions pinned;
  pinned.replay = r.result.failure->pin;
  EXPECT_TRUE(ms::model(pinned, relaxed_message_passing).failure);
}
