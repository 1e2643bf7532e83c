// A parallel spec's case under fuzzer-chosen schedules
// (merilo/parallel/fuzz.hpp): fixed byte inputs decode to a case and a
// schedule, and the linearizability checker's verdict is asserted.
#include <cstdint>
#include <memory>
#include <mutex>  // std::lock_guard
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <merilo/parallel/parallel.hpp>  // generate_case

#include <merilo/fuzz/corpus.hpp>    // read_inputs
#include <merilo/fuzz/parallel.hpp>  // ParallelTarget
#include <merilo/parallel/fuzz.hpp>
#include <merilo/sync/sync.hpp>

namespace {

namespace parallel = merilo::parallel;
namespace st = merilo::statem;

/// A counter whose increment, with `lost_update`, loads and then stores.
struct Counter {
  bool lost_update = false;
  merilo::sync::atomic<std::int64_t> value{0};
  std::int64_t increment() {
    if (!lost_update) return value.fetch_add(1, std::memory_order_relaxed) + 1;
    const std::int64_t seen = value.load(std::memory_order_relaxed);
    value.store(seen + 1, std::memory_order_relaxed);
    return seen + 1;
  }
  std::int64_t get() const { return value.load(std::memory_order_relaxed); }
};

struct Model {
  std::int64_t value = 0;
  friend bool operator==(const Model&, const Model&) = default;
};

enum class Op : std::uint8_t { inc, get };
std::string merilo_describe(Op op) { return op == Op::inc ? "inc" : "get"; }

struct CounterSpec {
  bool lost_update = false;
  bool gets = false;  // draw gets too (else increments only)

  using model_type = Model;
  using command_type = Op;
  using response_type = std::int64_t;
  using sut_type = std::unique_ptr<Counter>;

  Model initial() const { return {}; }
  st::Gen<Op> command(const Model&) const {
    return gets ? st::element_of<Op>({Op::inc, Op::get}) : st::element_of<Op>({Op::inc});
  }
  st::Admission precondition(const Model&, Op) const { return st::Admission::admit; }
  Model next_model(const Model& m, Op op) const { return op == Op::inc ? Model{m.value + 1} : m; }
  sut_type new_sut() const {
    auto c = std::make_unique<Counter>();
    c->lost_update = lost_update;
    return c;
  }
  std::int64_t run(sut_type& c, Op op) const { return op == Op::inc ? c->increment() : c->get(); }
  parallel::MaybeViolation postcondition(const Model& m, Op op, std::int64_t got) const {
    const std::int64_t want = op == Op::inc ? m.value + 1 : m.value;
    if (got == want) return std::nullopt;
    return st::Violation{"counter.value",
                         "got " + std::to_string(got) + ", want " + std::to_string(want)};
  }
  parallel::MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

/// One increment per branch, no prefix.
parallel::FuzzOptions two_increments() {
  parallel::FuzzOptions o;
  o.max_prefix = 0;
  o.max_branch = 1;
  o.cases = 1;
  o.name = "CounterFuzz";
  return o;
}

/// The lost update's input: case 0 (two zero header bytes), then the
/// schedule: branch 0's thread starts and loads, and at the byte 1 branch 1
/// is chosen before branch 0 stores (one preemption); both store 1.
const std::vector<std::uint8_t> kLostUpdate = {0, 0, 0, 0, 0, 0, 1};

TEST(ParallelFuzzInput, AKnownBadScheduleLosesAnUpdate) {
  const auto r =
      parallel::run_input(CounterSpec{.lost_update = true}, two_increments(), kLostUpdate);
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(r.violation.has_value()) << r.report();
  EXPECT_EQ(r.violation->tag, parallel::kNotLinearizableTag);
  EXPECT_EQ(r.evidence, parallel::Evidence::raced);
  EXPECT_EQ(r.run, 0U);
  ASSERT_EQ(r.histories.size(), 2U);
  ASSERT_EQ(r.histories[0].size(), 1U);
  ASSERT_EQ(r.histories[1].size(), 1U);
  EXPECT_EQ(r.histories[0][0].response, 1);  // both increments answered 1
  EXPECT_EQ(r.histories[1][0].response, 1);
  ASSERT_TRUE(r.execution.result.failure.has_value());
  EXPECT_EQ(r.execution.result.failure->preemptions, 1U);
  EXPECT_EQ(r.token.rfind("pf1:1:0:2:0:1:rc11:0000000001:", 0), 0U) << r.token;
}

TEST(ParallelFuzzInput, TheAtomicCounterPassesTheSameSchedule) {
  const auto r = parallel::run_input(CounterSpec{}, two_increments(), kLostUpdate);
  EXPECT_TRUE(r.passed()) << r.report();
  ASSERT_EQ(r.histories.size(), 2U);  // the race ran and was judged
  EXPECT_TRUE(r.token.empty());
}

TEST(ParallelFuzzInput, ThePrintedPinReplaysTheSameFailure) {
  const auto found =
      parallel::run_input(CounterSpec{.lost_update = true}, two_increments(), kLostUpdate);
  ASSERT_FALSE(found.passed());
  const std::string report = found.report();
  EXPECT_NE(report.find("merilo::parallel::replay_input(\n      CounterSpec{},\n      \"" +
                        found.token + "\");"),
            std::string::npos)
      << report;
  const auto again = parallel::replay_input(CounterSpec{.lost_update = true}, found.token);
  ASSERT_TRUE(again.error.empty()) << again.error;
  ASSERT_TRUE(again.violation.has_value());
  EXPECT_EQ(again.violation->tag, found.violation->tag);
  EXPECT_EQ(again.token, found.token);
  ASSERT_TRUE(again.execution.result.failure.has_value());
  // The same choices, step for step.
  EXPECT_EQ(again.execution.result.failure->pin, found.execution.result.failure->pin);
  EXPECT_EQ(again.execution.result.failure->timeline, found.execution.result.failure->timeline);
  // The fixed counter follows the same bytes and passes: the pin is two-sided.
  const auto fixed = parallel::replay_input(CounterSpec{}, found.token);
  EXPECT_TRUE(fixed.passed()) << fixed.report();
}

TEST(ParallelFuzzInput, ATokenThatRebuildsAnotherCaseIsRefused) {
  const auto found =
      parallel::run_input(CounterSpec{.lost_update = true}, two_increments(), kLostUpdate);
  ASSERT_FALSE(found.token.empty());
  // Drawing gets too changes the case the token's seed and run draw.
  const auto other =
      parallel::replay_input(CounterSpec{.lost_update = true, .gets = true}, found.token);
  EXPECT_NE(other.error.find("another case"), std::string::npos) << other.error;
  EXPECT_FALSE(other.passed());
  const auto cut = parallel::replay_input(CounterSpec{}, found.token.substr(0, 20));
  EXPECT_NE(cut.error.find("malformed"), std::string::npos) << cut.error;
  const auto odd = parallel::replay_input(CounterSpec{}, "pf1:1:0:2:0:1:rc11:abc:0123456789abcdef");
  EXPECT_NE(odd.error.find("not hex bytes"), std::string::npos) << odd.error;
}

TEST(ParallelFuzzInput, TheHeaderPicksTheCaseTheCheckDraws) {
  parallel::FuzzOptions o;
  const CounterSpec spec{.gets = true};
  for (const std::size_t run : {0U, 5U, 99U}) {
    std::vector<std::uint8_t> input = parallel::case_header(run);
    const auto r = parallel::run_input(spec, o, input);
    EXPECT_EQ(r.run, run);
    const auto drawn = parallel::generate_case(spec, {.seed = 1}, run);
    EXPECT_EQ(r.tested, drawn.drawn);
  }
  // 300 % 100: the header wraps around the cases.
  EXPECT_EQ(parallel::run_input(spec, o, std::vector<std::uint8_t>{0x2c, 0x01}).run, 0U);
  // One byte: the low byte alone.
  EXPECT_EQ(parallel::run_input(spec, o, std::vector<std::uint8_t>{7}).run, 7U);
}

TEST(ParallelFuzzInput, EveryInputRunsAndTheFixedCounterNeverFails) {
  parallel::FuzzOptions o;  // cases with prefixes and up to four calls a branch
  o.cases = 20;
  const CounterSpec spec{.gets = true};
  EXPECT_TRUE(parallel::run_input(spec, o, {}).passed());  // the empty input: case 0, defaults
  std::uint64_t x = 12345;
  for (int i = 0; i < 150; ++i) {
    std::vector<std::uint8_t> input(static_cast<std::size_t>(i % 40));
    for (auto& b : input) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      b = static_cast<std::uint8_t>(x >> 56U);
    }
    const auto r = parallel::run_input(spec, o, input);
    ASSERT_TRUE(r.passed()) << r.report();
  }
}

TEST(ParallelFuzzInput, TheLostUpdateIsFoundAmongTheSameRandomInputs) {
  parallel::FuzzOptions o;
  o.cases = 20;
  const CounterSpec spec{.lost_update = true, .gets = true};
  std::uint64_t x = 12345;
  std::size_t failed = 0;
  for (int i = 0; i < 150; ++i) {
    std::vector<std::uint8_t> input(static_cast<std::size_t>(i % 40));
    for (auto& b : input) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      b = static_cast<std::uint8_t>(x >> 56U);
    }
    const auto r = parallel::run_input(spec, o, input);
    ASSERT_TRUE(r.error.empty()) << r.error;
    if (!r.passed()) ++failed;
  }
  EXPECT_GT(failed, 0U);
}

TEST(ParallelFuzzInput, BadOptionsAreAUsageError) {
  parallel::FuzzOptions o;
  o.cases = 0;
  EXPECT_NE(parallel::run_input(CounterSpec{}, o, {}).error.find("cases is 0"), std::string::npos);
  o.cases = parallel::kMaxFuzzCases + 1;
  EXPECT_NE(parallel::seed_inputs(CounterSpec{}, o).error.find("FuzzOptions::cases"),
            std::string::npos);
}

TEST(ParallelFuzzSeeds, EachSeedStartsWithItsCaseHeader) {
  parallel::FuzzOptions o;
  o.cases = 4;
  o.seed_cases = 3;
  o.seed_executions = 50;
  const auto seeds = parallel::seed_inputs(CounterSpec{.gets = true}, o);
  ASSERT_TRUE(seeds.error.empty()) << seeds.error;
  EXPECT_EQ(seeds.cases, 3U);
  EXPECT_FALSE(seeds.complete);  // the fourth case was not searched
  std::vector<bool> seen(3, false);
  for (const auto& input : seeds.inputs) {
    ASSERT_GE(input.size(), 2U);
    const std::size_t run = input[0] | (static_cast<std::size_t>(input[1]) << 8U);
    ASSERT_LT(run, 3U);
    seen[run] = true;
    EXPECT_TRUE(parallel::run_input(CounterSpec{.gets = true}, o, input).passed());
  }
  EXPECT_EQ(seen, std::vector<bool>(3, true));
}

TEST(ParallelFuzzSeeds, WithoutPreemptionsTheSearchStopsShortOfTheLostUpdate) {
  parallel::FuzzOptions o = two_increments();
  o.seed_preemptions = 0;
  const auto calm = parallel::seed_inputs(CounterSpec{.lost_update = true}, o);
  ASSERT_TRUE(calm.error.empty()) << calm.error;
  for (const auto& input : calm.inputs) {
    EXPECT_TRUE(parallel::run_input(CounterSpec{.lost_update = true}, o, input).passed());
  }
  // One preemption reaches it: some seed is a crash input.
  o.seed_preemptions = 1;
  const auto deeper = parallel::seed_inputs(CounterSpec{.lost_update = true}, o);
  std::size_t failing = 0;
  for (const auto& input : deeper.inputs) {
    if (!parallel::run_input(CounterSpec{.lost_update = true}, o, input).passed()) ++failing;
  }
  EXPECT_GT(failing, 0U);
}

/// Two locks taken in the order a command names: opposite orders in two
/// branches can deadlock.
struct LockPairSpec {
  struct Locks {
    merilo::sync::mutex a;
    merilo::sync::mutex b;
  };
  struct Empty {  // no state to model: the verdict is the deadlock
    int unused = 0;
    friend bool operator==(const Empty&, const Empty&) = default;
  };
  using model_type = Empty;
  using command_type = Op;  // inc: a then b; get: b then a
  using response_type = int;
  using sut_type = std::unique_ptr<Locks>;

  Empty initial() const { return {}; }
  st::Gen<Op> command(const Empty&) const { return st::element_of<Op>({Op::inc, Op::get}); }
  st::Admission precondition(const Empty&, Op) const { return st::Admission::admit; }
  Empty next_model(const Empty& m, Op) const { return m; }
  sut_type new_sut() const { return std::make_unique<Locks>(); }
  int run(sut_type& l, Op op) const {
    merilo::sync::mutex& first = op == Op::inc ? l->a : l->b;
    merilo::sync::mutex& second = op == Op::inc ? l->b : l->a;
    std::lock_guard one(first);
    std::lock_guard two(second);
    return 0;
  }
  parallel::MaybeViolation postcondition(const Empty&, Op, int) const { return std::nullopt; }
  parallel::MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

TEST(ParallelFuzzInput, OppositeLockOrdersDeadlockAsParallelSays) {
  parallel::FuzzOptions o;
  o.max_prefix = 0;
  o.max_branch = 1;
  o.cases = 8;
  std::uint64_t x = 99;
  for (int i = 0; i < 400; ++i) {
    std::vector<std::uint8_t> input(12);
    for (auto& b : input) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      b = static_cast<std::uint8_t>(x >> 56U);
    }
    const auto r = parallel::run_input(LockPairSpec{}, o, input);
    ASSERT_TRUE(r.error.empty()) << r.error;
    if (r.passed()) continue;
    EXPECT_EQ(r.violation->tag, parallel::kDeadlockTag) << r.report();
    EXPECT_NE(r.violation->detail.find("blocked"), std::string::npos) << r.violation->detail;
    const auto again = parallel::replay_input(LockPairSpec{}, r.token);
    ASSERT_TRUE(again.violation.has_value()) << again.report();
    EXPECT_EQ(again.violation->tag, parallel::kDeadlockTag);
    return;
  }
  ADD_FAILURE() << "no input of 400 deadlocked";
}

using CounterTarget = merilo::fuzz::ParallelTarget<CounterSpec>;

TEST(ParallelFuzzTarget, ACleanInputReturnsZero) {
  CounterTarget target(CounterSpec{}, two_increments(), "CounterSpec{}");
  EXPECT_EQ(target.test_one_input(kLostUpdate.data(), kLostUpdate.size()), 0);
  EXPECT_EQ(target.options().spec_text, "CounterSpec{}");
}

TEST(ParallelFuzzTargetDeathTest, AFailingInputPrintsItsPinAndAborts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const auto found =
      parallel::run_input(CounterSpec{.lost_update = true}, two_increments(), kLostUpdate);
  ASSERT_FALSE(found.token.empty());
  EXPECT_DEATH(
      {
        CounterTarget target(CounterSpec{.lost_update = true}, two_increments(),
                             "CounterSpec{.lost_update = true}");
        (void)target.test_one_input(kLostUpdate.data(), kLostUpdate.size());
      },
      "fuzz target CounterFuzz found parallel.not_linearizable(.|\n)*" + found.token);
}

TEST(ParallelFuzzTarget, SeedingWritesOneFilePerSeed) {
  const std::string dir = testing::TempDir() + "merilo_parallel_fuzz_seeds";
  parallel::FuzzOptions o = two_increments();
  CounterTarget target(CounterSpec{}, o, "CounterSpec{}");
  EXPECT_EQ(target.seed(dir), 0);
  const auto seeds = parallel::seed_inputs(CounterSpec{}, o);
  std::string error;
  const auto files = merilo::fuzz::read_inputs(dir, error);
  EXPECT_TRUE(error.empty()) << error;
  EXPECT_EQ(files.size(), seeds.inputs.size());
}

}  // namespace
