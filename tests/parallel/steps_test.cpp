// steps_test.cpp — specs whose next_model sees the response and the caller,
// and whose command generator knows its branch: what each callback is given
// during generation, the prefix and the race.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <merilo/parallel/parallel.hpp>

namespace {

namespace parallel = merilo::parallel;
namespace st = merilo::statem;
using merilo::linearize::Caller;

struct Tally {  // hashable by its bytes
  std::int64_t calls = 0;
  friend bool operator==(const Tally&, const Tally&) = default;
};

/// What the spec's callbacks were given, from any thread.
struct Seen {
  std::mutex mu;
  std::set<Caller> drew_as;           // command(model, branch)
  std::set<Caller> stepped_as;        // next_model(..., caller)
  std::set<std::int64_t> drawn_from;  // the model's calls when command was asked
};

/// A counter: `run` returns how many calls came before. Its next_model
/// takes the response and the caller; it has no two-argument form.
struct CallerSpec {
  std::shared_ptr<Seen> seen = std::make_shared<Seen>();
  bool blame_branch_1 = false;  // a model that refuses every step of branch 1

  using model_type = Tally;
  using command_type = int;
  using response_type = std::int64_t;
  using sut_type = std::unique_ptr<std::pair<std::mutex, std::int64_t>>;

  Tally initial() const { return {}; }
  st::Gen<int> command(const Tally& m, Caller who) const {
    std::lock_guard lock(seen->mu);
    seen->drew_as.insert(who);
    seen->drawn_from.insert(m.calls);
    return st::just(static_cast<int>(who));  // the command is the drawing branch
  }
  st::Admission precondition(const Tally&, int) const { return st::Admission::admit; }
  Tally next_model(const Tally& m, int cmd, std::int64_t got, Caller who) const {
    std::lock_guard lock(seen->mu);
    seen->stepped_as.insert(who);
    EXPECT_EQ(got, m.calls);
    // The command says who drew it: the branch that ran it is its caller.
    EXPECT_EQ(static_cast<Caller>(cmd), who);
    return Tally{m.calls + 1};
  }
  sut_type new_sut() const { return std::make_unique<std::pair<std::mutex, std::int64_t>>(); }
  std::int64_t run(sut_type& s, int) const {
    std::lock_guard lock(s->first);
    return s->second++;
  }
  parallel::MaybeViolation postcondition(const Tally& m, int cmd, std::int64_t got) const {
    if (blame_branch_1 && cmd == 1) return st::Violation{"test.blamed", "branch 1"};
    if (got == m.calls) return std::nullopt;
    return st::Violation{"test.count", "got " + std::to_string(got)};
  }
  parallel::MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};
static_assert(parallel::Spec<CallerSpec>);
static_assert(parallel::StepsOnCaller<CallerSpec> && !parallel::StepsOnCommand<CallerSpec>);
static_assert(parallel::DrawsPerBranch<CallerSpec>);

TEST(ParallelSteps, EachBranchDrawsAndStepsAsItsIndexAndThePrefixAsKPrefixCaller) {
  CallerSpec spec;
  const auto r = parallel::check(spec, {.seed = 5, .test_count = 30, .branches = 3});
  ASSERT_TRUE(r.ok()) << (r.failure ? parallel::report(*r.failure) : r.error);
  const std::set<Caller> all = {0, 1, 2, parallel::kPrefixCaller};
  EXPECT_EQ(spec.seen->drew_as, all);
  EXPECT_EQ(spec.seen->stepped_as, all);
}

TEST(ParallelSteps, GenerationKeepsTheModelWhenNextModelNeedsAResponse) {
  // Nothing runs while a case is drawn, and this spec cannot step without
  // a response: every command is drawn from initial().
  CallerSpec spec;
  const auto r = parallel::check(spec, {.seed = 9, .test_count = 20});
  ASSERT_TRUE(r.ok()) << (r.failure ? parallel::report(*r.failure) : r.error);
  EXPECT_EQ(spec.seen->drawn_from, (std::set<std::int64_t>{0}));
}

TEST(ParallelSteps, ARaceTheModelCannotPlaceNamesTheCallNoOrderPlaces) {
  CallerSpec spec;
  spec.blame_branch_1 = true;
  const auto r = parallel::check(spec, {.seed = 3, .max_prefix = 0, .max_shrinks = 50});
  ASSERT_TRUE(r.failure.has_value()) << r.error;
  const auto& f = *r.failure;
  ASSERT_EQ(f.violation.tag, parallel::kNotLinearizableTag) << parallel::report(f);
  // Shrinking may merge the branches; whichever branch holds the blamed
  // call, the stuck call says no order places it, and so does the text.
  ASSERT_EQ(f.stuck.size(), 1U) << parallel::report(f);
  EXPECT_NE(f.stuck[0].reason.find("violates: test.blamed: branch 1; no valid order places this "
                                   "call anywhere"),
            std::string::npos)
      << f.stuck[0].reason;
  EXPECT_NE(f.explanation.find("no valid order places thread " +
                               std::to_string(f.stuck[0].call.history) + " #0 (1 -> 0) anywhere"),
            std::string::npos)
      << f.explanation;
}

}  // namespace
