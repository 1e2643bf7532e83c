// stress_test.cpp — the stress mode, for systems that cannot use
// merilo::sync: free threads released together with jitter, a case run for
// a time budget, and a blocked race reported as a likely deadlock long
// before the deadline.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include <merilo/parallel/parallel.hpp>

namespace {

namespace parallel = merilo::parallel;
namespace st = merilo::statem;

struct Value {
  std::int64_t v = 0;
  friend bool operator==(const Value&, const Value&) = default;
};

enum class Op : std::uint8_t { inc, get };
[[nodiscard]] constexpr std::string_view name(Op op) noexcept {
  return op == Op::inc ? "inc" : "get";
}

/// A std-only counter whose increment is a relaxed load and a relaxed store.
struct StdCounter {
  bool racy = true;
  std::atomic<std::int64_t> n{0};
  std::int64_t inc() {
    if (!racy) return n.fetch_add(1) + 1;
    const std::int64_t seen = n.load(std::memory_order_relaxed);
    n.store(seen + 1, std::memory_order_relaxed);
    return seen + 1;
  }
};

struct StdCounterSpec {
  using model_type = Value;
  using command_type = Op;
  using response_type = std::int64_t;
  using sut_type = std::unique_ptr<StdCounter>;
  bool racy = true;

  Value initial() const { return {}; }
  st::Gen<Op> command(const Value&) const { return st::element_of<Op>({Op::inc, Op::get}); }
  st::Admission precondition(const Value&, Op) const { return st::Admission::admit; }
  Value next_model(const Value& m, Op op) const { return op == Op::inc ? Value{m.v + 1} : m; }
  sut_type new_sut() const {
    auto c = std::make_unique<StdCounter>();
    c->racy = racy;
    return c;
  }
  std::int64_t run(sut_type& c, Op op) const { return op == Op::inc ? c->inc() : c->n.load(); }
  parallel::MaybeViolation postcondition(const Value& m, Op op, std::int64_t got) const {
    const std::int64_t want = op == Op::inc ? m.v + 1 : m.v;
    if (got == want) return std::nullopt;
    return st::Violation{"counter.value", std::to_string(got) + " != " + std::to_string(want)};
  }
  parallel::MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

/// A std-only latch: `wait` blocks until `open` was called; nobody opens
/// it, so every wait blocks for good.
enum class Gate : std::uint8_t { wait };
[[nodiscard]] constexpr std::string_view name(Gate) noexcept { return "wait"; }
struct Latch {
  std::mutex mu;
  std::condition_variable cv;
  bool open = false;
  std::int64_t wait() {
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return open; });
    return 1;
  }
};
struct LatchSpec {
  using model_type = Value;
  using command_type = Gate;
  using response_type = std::int64_t;
  using sut_type = std::shared_ptr<Latch>;

  Value initial() const { return {}; }
  st::Gen<Gate> command(const Value&) const { return st::just(Gate::wait); }
  st::Admission precondition(const Value&, Gate) const { return st::Admission::admit; }
  Value next_model(const Value& m, Gate) const { return m; }
  sut_type new_sut() const { return std::make_shared<Latch>(); }
  std::int64_t run(sut_type& l, Gate) const { return l->wait(); }
  parallel::MaybeViolation postcondition(const Value&, Gate, std::int64_t) const {
    return std::nullopt;
  }
  parallel::MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

TEST(ParallelStress, AStdOnlyLostUpdateIsFoundUnderStress) {
  std::size_t found = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const auto r =
        parallel::check(StdCounterSpec{}, {.seed = seed, .scheduler = parallel::Scheduler::stress});
    ASSERT_TRUE(r.error.empty()) << r.error;
    if (!r.failure) continue;
    ++found;
    const auto& f = *r.failure;
    EXPECT_EQ(f.violation.tag, parallel::kNotLinearizableTag) << parallel::report(f);
    EXPECT_EQ(f.scheduling.scheduler, parallel::Scheduler::stress);
    EXPECT_GE(f.executions_to_failure, 1U);
    EXPECT_GT(f.ns_to_failure, 0);
    const std::string text = parallel::report(f);
    EXPECT_NE(text.find("first failed at execution"), std::string::npos) << text;
    EXPECT_NE(text.find(":free:"), std::string::npos) << text;  // a pin, not an exact replay
  }
  // A race a few nanoseconds wide, between free threads: not every seed,
  // but the stress mode meets it (bench_parallel measures how often).
  EXPECT_GE(found, 1U);
}

TEST(ParallelStress, TheFixedStdCounterPassesUnderStress) {
  const auto r =
      parallel::check(StdCounterSpec{.racy = false},
                      {.seed = 1, .test_count = 10, .scheduler = parallel::Scheduler::stress});
  EXPECT_TRUE(r.ok()) << (r.failure ? parallel::report(*r.failure) : r.error);
  EXPECT_EQ(r.free_cases, 10U);
  EXPECT_GT(r.executions, 30U);  // more than repeat: the cases ran for stress_time
}

/// A register over one relaxed atomic: `write v` stores, `read` loads. A
/// single location is linearizable on any hardware (every thread sees its
/// stores in one order), so any verdict against it is the recorder's error.
struct RegOp {
  bool write = false;
  std::int64_t v = 0;
};
std::string merilo_describe(const RegOp& op) {
  return op.write ? "write " + std::to_string(op.v) : std::string("read");
}
struct RelaxedRegisterSpec {
  using model_type = Value;
  using command_type = RegOp;
  using response_type = std::int64_t;
  using sut_type = std::unique_ptr<std::atomic<std::int64_t>>;

  Value initial() const { return {}; }
  st::Gen<RegOp> command(const Value&) const {
    return st::frequency<RegOp>({{1, st::map(st::integer<std::int64_t>(1, 1000),
                                             [](std::int64_t v) {
                                               return RegOp{true, v};
                                             })},
                                 {1, st::just(RegOp{false, 0})}});
  }
  st::Admission precondition(const Value&, const RegOp&) const { return st::Admission::admit; }
  Value next_model(const Value& m, const RegOp& op) const { return op.write ? Value{op.v} : m; }
  sut_type new_sut() const { return std::make_unique<std::atomic<std::int64_t>>(0); }
  std::int64_t run(sut_type& x, const RegOp& op) const {
    if (op.write) {
      x->store(op.v, std::memory_order_relaxed);
      return 0;
    }
    return x->load(std::memory_order_relaxed);
  }
  parallel::MaybeViolation postcondition(const Value& m, const RegOp& op, std::int64_t got) const {
    const std::int64_t want = op.write ? 0 : m.v;
    if (got == want) return std::nullopt;
    return st::Violation{"register.value", std::to_string(got) + " != " + std::to_string(want)};
  }
  parallel::MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

// The instants of a free call are read behind fences
// (docs/design/call-instants.md). Read plainly, a write's return was
// stamped while its store still sat in the store buffer, and a read that
// began after that stamp, by the clock, could miss it: a correct register
// was reported not linearizable at 7 of seeds 1..10 with 100 cases each.
TEST(ParallelStress, ARelaxedAtomicRegisterIsNeverJudgedByAWriteStillInTheStoreBuffer) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const auto r =
        parallel::check(RelaxedRegisterSpec{},
                        {.seed = seed, .test_count = 40, .scheduler = parallel::Scheduler::stress});
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_FALSE(r.failure.has_value()) << parallel::report(*r.failure);
    EXPECT_EQ(r.free_cases, 40U);
  }
}

TEST(ParallelStress, BlockedThreadsAreALikelyDeadlockLongBeforeTheDeadline) {
  const auto started = std::chrono::steady_clock::now();
  const auto r = parallel::check(LatchSpec{}, {.seed = 1,
                                               .max_prefix = 0,
                                               .max_shrinks = 0,
                                               .scheduler = parallel::Scheduler::stress,
                                               .stall_time = std::chrono::milliseconds(100),
                                               .deadline = std::chrono::seconds(60)});
  const auto took = std::chrono::steady_clock::now() - started;
  ASSERT_TRUE(r.failure.has_value());
  const auto& f = *r.failure;
  EXPECT_EQ(f.violation.tag, parallel::kDeadlockTag) << parallel::report(f);
  EXPECT_NE(f.violation.detail.find("likely deadlock"), std::string::npos) << f.violation.detail;
  EXPECT_TRUE(f.system_left_alive);
  EXPECT_GE(f.abandoned_threads, 2U);
  EXPECT_LT(took, std::chrono::seconds(30));  // the stall, not the 60 s deadline
  EXPECT_NE(parallel::report(f).find("threads abandoned by this check"), std::string::npos);
}

TEST(ParallelStress, ShrinkingStopsOnceTooManyThreadsWereAbandoned) {
  const auto r = parallel::check(LatchSpec{}, {.seed = 2,
                                               .max_prefix = 0,
                                               .scheduler = parallel::Scheduler::stress,
                                               .stall_time = std::chrono::milliseconds(20)});
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_LE(r.failure->abandoned_threads, parallel::kMaxAbandonedThreads + parallel::kMaxBranches);
}

TEST(ParallelStress, NegativeBudgetsAreUsageErrors) {
  const auto r =
      parallel::check(StdCounterSpec{}, {.seed = 1, .stress_time = std::chrono::nanoseconds(-1)});
  EXPECT_NE(r.error.find("stress_time"), std::string::npos) << r.error;
}

}  // namespace
