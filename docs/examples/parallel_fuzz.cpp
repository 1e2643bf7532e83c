// docs/examples/parallel_fuzz.cpp
// A parallel spec as a libFuzzer target in one macro: a register that keeps
// the largest value recorded, shared by threads. With `racy`, record loads
// the value, compares, then stores: two records can both load before either
// stores, and the smaller one wins. Built with -fsanitize=fuzzer this file
// is a libFuzzer target; built with GoogleTest (as docs/ does) the TESTs
// below feed it inputs directly.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <merilo/fuzz/parallel.hpp>
#include <merilo/sync/sync.hpp>

namespace maxreg {

namespace parallel = merilo::parallel;
namespace st = merilo::statem;

struct Register {
  bool racy = false;
  merilo::sync::atomic<int> value{0};
  void record(int v) {
    if (racy) {
      if (value.load() < v) value.store(v);  // another record may come between
      return;
    }
    int seen = value.load();
    while (seen < v && !value.compare_exchange_weak(seen, v)) {
    }
  }
  int read() { return value.load(); }
};

struct Max {  // the model: the largest value recorded
  int value = 0;
  friend bool operator==(const Max&, const Max&) = default;
};

struct Op {
  bool record = false;
  int value = 0;
};
std::string merilo_describe(const Op& op) {
  return op.record ? "record " + std::to_string(op.value) : "read";
}

struct Spec {
  bool racy = false;

  using model_type = Max;
  using command_type = Op;
  using response_type = int;  // what read answered (record answers 0)
  using sut_type = std::unique_ptr<Register>;

  Max initial() const { return {}; }
  st::Gen<Op> command(const Max&) const {
    return st::one_of<Op>({st::map(st::integer(1, 3),
                                   [](int v) {
                                     return Op{true, v};
                                   }),
                           st::just(Op{false, 0})});
  }
  st::Admission precondition(const Max&, const Op&) const { return st::Admission::admit; }
  Max next_model(const Max& m, const Op& op) const {
    return op.record && op.value > m.value ? Max{op.value} : m;
  }
  sut_type new_sut() const {
    auto r = std::make_unique<Register>();
    r->racy = racy;
    return r;
  }
  int run(sut_type& r, const Op& op) const {
    if (!op.record) return r->read();
    r->record(op.value);
    return 0;
  }
  parallel::MaybeViolation postcondition(const Max& m, const Op& op, int got) const {
    if (op.record || got == m.value) return std::nullopt;
    return st::Violation{"max.read", "read " + std::to_string(got) + ", the largest recorded is " +
                                         std::to_string(m.value)};
  }
  parallel::MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

}  // namespace maxreg

// The whole fuzz target: the input picks one of 100 cases of seed 1 and
// the schedule; `-merilo_seed=DIR` writes each of the first 20 cases' seeds.
MERILO_PARALLEL_FUZZ_TARGET(maxreg::Spec{.racy = true}, .name = "RacyMax");

namespace {

namespace parallel = merilo::parallel;

TEST(ParallelFuzzDoc, AShortInputIsACaseAndTheStartOfASchedule) {
  // Two header bytes: case 3. No schedule bytes: every choice is the
  // default, so each call runs alone and the race passes.
  const std::vector<std::uint8_t> input = {3, 0};
  const auto r = parallel::run_input(maxreg::Spec{.racy = true}, {}, input);
  EXPECT_EQ(r.run, 3U);
  EXPECT_TRUE(r.passed()) << r.report();
}

TEST(ParallelFuzzDoc, RandomInputsFindTheRaceAndItsPinReplaysIt) {
  std::uint64_t x = 7;
  for (int i = 0; i < 2000; ++i) {  // what a fuzzer does, without its feedback
    std::vector<std::uint8_t> input(24);
    for (auto& b : input) b = static_cast<std::uint8_t>((x = x * 6364136223846793005U + 1) >> 56U);
    const auto r = parallel::run_input(maxreg::Spec{.racy = true}, {}, input);
    if (r.passed()) continue;
    EXPECT_EQ(r.violation->tag, parallel::kNotLinearizableTag) << r.report();
    // The report ends with a test that replays the token; the fixed
    // register follows the same choices and passes.
    EXPECT_FALSE(parallel::replay_input(maxreg::Spec{.racy = true}, r.token).passed());
    EXPECT_TRUE(parallel::replay_input(maxreg::Spec{}, r.token).passed());
    return;
  }
  ADD_FAILURE() << "no input of 2000 lost a record";
}

TEST(ParallelFuzzDoc, TheTargetRunsCleanInputsQuietly) {
  const std::vector<std::uint8_t> input = {0, 0};
  EXPECT_EQ(LLVMFuzzerTestOneInput(input.data(), input.size()), 0);
}

}  // namespace
