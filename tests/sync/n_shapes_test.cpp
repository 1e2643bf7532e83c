// The shapes of n_shapes.hpp at a small N: the seeded schedule fuzzer
// (seeds from the fewest-preemptions search, then sync::fuzz) and the
// default portfolio (DPOR to its budget, then the fuzzer) find each seeded
// bug; neither reports anything on a fixed twin.
#include "n_shapes.hpp"

#include <cstddef>
#include <functional>

#include <gtest/gtest.h>

#include <merilo/sync/fuzz.hpp>
#include <merilo/sync/model.hpp>

namespace {

namespace ms = merilo::sync;
namespace shapes = merilo::sync::testing;

struct Shape {
  const char* name;
  void (*body)(std::size_t, bool);
};

const Shape kShapes[] = {{"flags", shapes::flags_body},
                         {"two_stage", shapes::two_stage_body},
                         {"wrong_lock", shapes::wrong_lock_body}};

constexpr std::size_t kSmallN = 3;

ms::ModelOptions sequentially_consistent(std::size_t executions) {
  ms::ModelOptions o;
  o.memory_model = false;
  o.max_executions = executions;
  return o;
}

/// Seeds from the bound-0 search (20 executions), then the fuzzer.
ms::FuzzResult seeded_fuzz(const std::function<void()>& body, std::size_t executions) {
  ms::ModelOptions seeding = sequentially_consistent(20);
  seeding.preemptions = 0;
  const ms::Seeds seeds = ms::seed_inputs(seeding, body);
  return ms::fuzz(sequentially_consistent(executions), body, seeds.inputs);
}

TEST(NShapes, TheSeededFuzzerFindsEachSeededShape) {
  for (const Shape& shape : kShapes) {
    const std::function<void()> body = [&shape] { shape.body(kSmallN, false); };
    const ms::FuzzResult r = seeded_fuzz(body, 5000);
    ASSERT_TRUE(r.result.failure) << shape.name << ": " << r.result.summary();
    EXPECT_EQ(r.result.failure->tag, ms::kAssertionTag) << shape.name;
    // Its pin replays it.
    ms::ModelOptions pinned = sequentially_consistent(1);
    pinned.replay = r.result.failure->pin;
    EXPECT_TRUE(ms::model(pinned, body).failure) << shape.name;
  }
}

TEST(NShapes, TheDefaultPortfolioFindsEachSeededShape) {
  for (const Shape& shape : kShapes) {
    ms::ModelOptions o;
    o.max_executions = 2000;
    const ms::ModelResult r = ms::model(o, [&shape] { shape.body(kSmallN, false); });
    ASSERT_TRUE(r.failure) << shape.name << ": " << r.summary();
    EXPECT_EQ(r.failure->tag, ms::kAssertionTag) << shape.name;
  }
}

TEST(NShapes, NoFixedTwinFailsUnderTheFuzzerOrThePortfolio) {
  for (const Shape& shape : kShapes) {
    const std::function<void()> body = [&shape] { shape.body(kSmallN, true); };
    const ms::FuzzResult fuzzed = seeded_fuzz(body, 1000);
    EXPECT_TRUE(fuzzed.result.passed()) << shape.name << ": " << fuzzed.result.report();
    ms::ModelOptions o;
    o.max_executions = 1000;
    o.fuzz_executions = 1000;
    const ms::ModelResult r = ms::model(o, body);
    EXPECT_TRUE(r.passed()) << shape.name << ": " << r.report();
  }
}

TEST(NShapes, TheFixedTwinsOfTwoThreadsPassEveryExecution) {
  for (const Shape& shape : kShapes) {
    const ms::ModelResult r = ms::model([&shape] { shape.body(2, true); });
    EXPECT_TRUE(r.passed()) << shape.name << ": " << r.report();
    EXPECT_TRUE(r.complete) << shape.name << ": " << r.summary();
  }
}

}  // namespace
