// docs/examples/parallel_counter.cpp
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <merilo/parallel/gtest.hpp>

namespace parallel = merilo::parallel;
namespace st = merilo::statem;

// The system: a counter shared by threads. With `lost_update` it reads and
// writes back in two lock sections, pausing in between.
struct Counter {
  bool lost_update = false;
  std::mutex mu;
  std::int64_t value = 0;
  std::int64_t increment() {
    if (!lost_update) {
      std::lock_guard lock(mu);
      return ++value;
    }
    std::int64_t seen = 0;
    {
      std::lock_guard lock(mu);
      seen = value;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(500));
    std::lock_guard lock(mu);
    value = seen + 1;
    return value;
  }
  std::int64_t get() {
    std::lock_guard lock(mu);
    return value;
  }
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

TEST(ParallelCounter, TheLockedCounterIsLinearizable) {
  merilo::testing::parallel_check(CounterSpec{}, {.seed = 42});
}

TEST(ParallelCounter, TheLostUpdateIsFoundAndShrunk) {
  auto r = parallel::check(CounterSpec{.lost_update = true}, {.seed = 42});
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->violation.tag, parallel::kNotLinearizableTag);
  // Shrunk to one increment in each of two branches.
  EXPECT_EQ(r.failure->shrunk,
            (parallel::Case<Op>{.prefix = {}, .branches = {{Op::inc}, {Op::inc}}}))
      << parallel::report(*r.failure);
}
