// docs/examples/parallel_counter.cpp
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include <merilo/gtest.hpp>
#include <merilo/sync/sync.hpp>

namespace parallel = merilo::parallel;
namespace st = merilo::statem;

// The system: a counter shared by threads, written against merilo::sync.
// With `lost_update` it loads the value and then stores value + 1: another
// increment can come between the two, a window of a few nanoseconds.
struct Counter {
  bool lost_update = false;
  merilo::sync::atomic<std::int64_t> value{0};
  std::int64_t increment() {
    if (!lost_update) return value.fetch_add(1) + 1;
    const std::int64_t seen = value.load(std::memory_order_relaxed);
    value.store(seen + 1, std::memory_order_relaxed);
    return seen + 1;
  }
  std::int64_t get() { return value.load(); }
};

struct CounterModel {  // trivially copyable, no padding: hashable by its bytes
  std::int64_t value = 0;
  friend bool operator==(const CounterModel&, const CounterModel&) = default;
};

enum class Op : std::uint8_t { inc, get };
std::string merilo_describe(Op op) { return op == Op::inc ? "inc" : "get"; }

struct CounterSpec {
  bool lost_update = false;

  using model_type = CounterModel;
  using command_type = Op;
  using response_type = std::int64_t;
  using sut_type = std::unique_ptr<Counter>;  // the threads share what it points to

  CounterModel initial() const { return {}; }
  st::Gen<Op> command(const CounterModel&) const { return st::element_of<Op>({Op::inc, Op::get}); }
  st::Admission precondition(const CounterModel&, Op) const { return st::Admission::admit; }
  CounterModel next_model(const CounterModel& m, Op op) const {
    return op == Op::inc ? CounterModel{m.value + 1} : m;
  }
  sut_type new_sut() const {
    auto c = std::make_unique<Counter>();
    c->lost_update = lost_update;
    return c;
  }
  std::int64_t run(sut_type& c, Op op) const { return op == Op::inc ? c->increment() : c->get(); }
  parallel::MaybeViolation postcondition(const CounterModel& m, Op op, std::int64_t got) const {
    const std::int64_t want = op == Op::inc ? m.value + 1 : m.value;
    if (got == want) return std::nullopt;
    return st::Violation{"counter.value",
                         "got " + std::to_string(got) + ", want " + std::to_string(want)};
  }
  parallel::MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

TEST(ParallelCounter, TheAtomicCounterIsLinearizable) {
  auto r = merilo::testing::parallel_check(CounterSpec{}, {.seed = 42});
  // Every schedule with at most 2 preemptions of every case was checked.
  EXPECT_EQ(r.rounds_done, 3U);
}

TEST(ParallelCounter, TheLostUpdateIsFoundShrunkAndPinned) {
  auto r = parallel::check(CounterSpec{.lost_update = true}, {.seed = 42});
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->violation.tag, parallel::kNotLinearizableTag);
  // Shrunk to one increment in each of two branches, one preemption apart.
  EXPECT_EQ(r.failure->shrunk,
            (parallel::Case<Op>{.prefix = {}, .branches = {{Op::inc}, {Op::inc}}}))
      << parallel::report(*r.failure);
  EXPECT_EQ(r.failure->scheduling.preemptions, 1U);
  // The pin replays the shrunk case under its schedule, exactly.
  auto again = parallel::replay(CounterSpec{.lost_update = true}, parallel::pin_token(*r.failure));
  EXPECT_TRUE(again.failure.has_value());
}
