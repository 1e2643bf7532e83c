// docs/examples/one_spec.cpp
#include <cstdint>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include <merilo/parallel/parallel.hpp>
#include <merilo/sync/sync.hpp>

namespace parallel = merilo::parallel;
namespace st = merilo::statem;

// A stock of units that callers take from and add to, shared by threads.
// Two seeded bugs: `refuses_exact` turns away a take of exactly what is left
// (one caller meets it), `check_then_take` reads the level and then stores
// it less n, so two takes can both succeed on one unit (only a race does).
enum class Bug : std::uint8_t { none, refuses_exact, check_then_take };

struct Stock {
  Bug bug = Bug::none;
  merilo::sync::atomic<int> level{0};
  bool take(int n) {
    int seen = level.load();
    if (bug == Bug::check_then_take) {
      if (seen < n) return false;
      level.store(seen - n);
      return true;
    }
    for (;;) {
      if (bug == Bug::refuses_exact ? seen <= n : seen < n) return false;
      if (level.compare_exchange_weak(seen, seen - n)) return true;
    }
  }
  void add(int n) { level.fetch_add(n); }
};

struct Op {
  enum Kind : std::uint8_t { add, take } kind;
  int amount;
};
std::string merilo_describe(const Op& op) {
  return (op.kind == Op::add ? "add " : "take ") + std::to_string(op.amount);
}

struct Level {  // the model: trivially copyable, hashable by its bytes
  int units = 0;
  friend bool operator==(const Level&, const Level&) = default;
};

// One spec, in the parallel tester's shape (run + postcondition).
struct StockSpec {
  Bug bug = Bug::none;

  using model_type = Level;
  using command_type = Op;
  using response_type = bool;  // what take answered (add answers true)
  using sut_type = std::unique_ptr<Stock>;

  Level initial() const { return {}; }
  st::Gen<Op> command(const Level&) const {
    return st::construct<Op>(st::element_of<Op::Kind>({Op::add, Op::take}), st::integer(1, 3));
  }
  st::Admission precondition(const Level&, const Op&) const { return st::Admission::admit; }
  Level next_model(const Level& m, const Op& op) const {
    if (op.kind == Op::add) return {m.units + op.amount};
    return m.units >= op.amount ? Level{m.units - op.amount} : m;
  }
  sut_type new_sut() const {
    auto s = std::make_unique<Stock>();
    s->bug = bug;
    return s;
  }
  bool run(sut_type& s, const Op& op) const {
    if (op.kind == Op::take) return s->take(op.amount);
    s->add(op.amount);
    return true;
  }
  parallel::MaybeViolation postcondition(const Level& m, const Op& op, bool got) const {
    const bool want = op.kind == Op::add || m.units >= op.amount;
    if (got == want) return std::nullopt;
    return st::Violation{"stock.take", std::string(got ? "granted" : "refused") + " with " +
                                           std::to_string(m.units) + " left"};
  }
  parallel::MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

TEST(OneSpec, TheFixedStockPassesBothTesters) {
  EXPECT_TRUE(st::check(StockSpec{}, {.seed = 1}).ok());  // 100 lists of up to 100 calls
  // 20 races, each under every schedule with up to two preemptions.
  EXPECT_TRUE(parallel::check(StockSpec{}, {.seed = 1, .test_count = 20}).ok());
}

TEST(OneSpec, StatemFindsWhatOneCallerMeets) {
  auto r = st::check(StockSpec{.bug = Bug::refuses_exact}, {.seed = 1});
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->violation.tag, "stock.take");
  // Shrunk to an add and a take of all of it.
  EXPECT_EQ(r.failure->shrunk.size(), 2U) << st::report(*r.failure);
}

TEST(OneSpec, OnlyTheConcurrentCheckFindsTheRace) {
  // One caller at a time never sees the window between load and store...
  EXPECT_TRUE(st::check(StockSpec{.bug = Bug::check_then_take}, {.seed = 1}).ok());
  // ...two threads under merilo's scheduler do.
  auto r = parallel::check(StockSpec{.bug = Bug::check_then_take}, {.seed = 1});
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->violation.tag, parallel::kNotLinearizableTag)
      << parallel::report(*r.failure);
}
