// sequential_test.cpp — a parallel spec run by statem (parallel/sequential.hpp):
// which of its callbacks statem's execution reaches, with what, and that a
// bug one caller meets is found and replayed through statem's entry points.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <merilo/parallel/parallel.hpp>

namespace {

namespace parallel = merilo::parallel;
namespace st = merilo::statem;
using merilo::linearize::Caller;

/// The tickets a dispenser has handed out (at most 64 per list), hashable
/// by its bytes.
struct Given {
  std::uint64_t tickets = 0;
  friend bool operator==(const Given&, const Given&) = default;
};

/// What the callbacks were given (statem calls from one thread).
struct Seen {
  std::set<Caller> drew_as;
  std::set<Caller> stepped_as;
  std::size_t stepped = 0;
  std::size_t built = 0;
  std::size_t torn_down = 0;
};

/// A ticket dispenser: `run` hands out a ticket nobody holds. The model
/// learns which from the response (it has no two-argument next_model), and
/// each caller's draw knows who it is. With `repeat_at`, the dispenser hands
/// out ticket 0 again once it has given out `repeat_at` tickets.
struct DispenserSpec {
  std::shared_ptr<Seen> seen = std::make_shared<Seen>();
  std::uint64_t repeat_at = 0;

  using model_type = Given;
  using command_type = int;  // the caller that drew it
  using response_type = std::uint64_t;
  using sut_type = std::unique_ptr<std::uint64_t>;  // tickets handed out

  Given initial() const { return {}; }
  st::Gen<int> command(const Given&, Caller who) const {
    seen->drew_as.insert(who);
    return st::just(static_cast<int>(who));
  }
  st::Admission precondition(const Given&, int) const { return st::Admission::admit; }
  Given next_model(const Given& m, int, std::uint64_t got, Caller who) const {
    seen->stepped_as.insert(who);
    ++seen->stepped;
    return Given{m.tickets | (std::uint64_t{1} << (got % 64))};
  }
  sut_type new_sut() const {
    ++seen->built;
    return std::make_unique<std::uint64_t>(0);
  }
  std::uint64_t run(sut_type& n, int) const {
    const std::uint64_t ticket = *n == repeat_at && repeat_at > 0 ? 0 : *n;
    ++*n;
    return ticket;
  }
  parallel::MaybeViolation postcondition(const Given& m, int, std::uint64_t got) const {
    if ((m.tickets >> (got % 64) & 1U) == 0) return std::nullopt;
    return st::Violation{"dispenser.repeat", "ticket " + std::to_string(got) + " again"};
  }
  parallel::MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const { ++seen->torn_down; }
};

TEST(Sequential, AParallelSpecIsAStatemSpecThroughTheAdapter) {
  static_assert(st::Spec<parallel::Sequential<DispenserSpec>>);
  static_assert(st::Spec<parallel::Sequential<DispenserSpec&>>);
  static_assert(parallel::SharedOnly<DispenserSpec>);
  static_assert(!st::Spec<DispenserSpec>);
}

TEST(Sequential, ExecutionStepsTheModelByTheResponseAsThePrefixCaller) {
  DispenserSpec spec;
  EXPECT_EQ(parallel::sequential(spec).initial(), Given{});
  st::CheckResult<int> r = st::check(spec, {.seed = 3, .test_count = 20, .max_commands = 40});
  ASSERT_TRUE(r.ok()) << (r.failure ? st::report(*r.failure) : r.error);
  // Every list is drawn, and every call is judged, as the prefix's are.
  EXPECT_EQ(spec.seen->drew_as, std::set<Caller>{parallel::kPrefixCaller});
  EXPECT_EQ(spec.seen->stepped_as, std::set<Caller>{parallel::kPrefixCaller});
  // The model moved once per executed call, by the response.
  EXPECT_EQ(spec.seen->stepped, r.commands_run);
  EXPECT_EQ(spec.seen->built, r.runs);
  EXPECT_EQ(spec.seen->torn_down, r.runs);
}

TEST(Sequential, ABugOneCallerMeetsIsFoundShrunkAndReplayed) {
  DispenserSpec spec{.repeat_at = 5};
  st::CheckResult<int> r = st::check(spec, {.seed = 3, .max_commands = 40});
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->violation.tag, "dispenser.repeat") << st::report(*r.failure);
  // The least list: five tickets handed out, then the repeat.
  EXPECT_EQ(r.failure->shrunk.size(), 6U) << st::report(*r.failure);
  // statem's other entry points take the parallel spec too.
  const st::Execution again = st::replay(spec, r.failure->shrunk);
  ASSERT_TRUE(again.violation.has_value());
  EXPECT_EQ(again.violation->tag, "dispenser.repeat");
  EXPECT_EQ(again.step, 5U);
  const st::CheckResult<int> alone =
      st::check_run(spec, {.seed = 3, .max_commands = 40}, r.failure->run);
  ASSERT_TRUE(alone.failure.has_value());
  EXPECT_EQ(alone.failure->shrunk, r.failure->shrunk);
  EXPECT_EQ(st::commands(spec, {.seed = 3, .max_commands = 40}, r.failure->run).list,
            r.failure->original);
  // The report's replay token re-runs the shrunk list.
  const st::CheckResult<int> pinned =
      st::check(spec, {.seed = 3, .max_commands = 40, .replay = r.failure->replay_token});
  ASSERT_TRUE(pinned.failure.has_value());
  EXPECT_TRUE(pinned.failure->replayed);
  EXPECT_EQ(pinned.failure->shrunk, r.failure->shrunk);
}

}  // namespace
