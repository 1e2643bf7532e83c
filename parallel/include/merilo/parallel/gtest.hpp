// merilo/parallel/gtest.hpp — GoogleTest glue for the parallel tester.
//
// One call in a TEST runs a check and, when it fails, fails the test at the
// caller's line with the whole report: the cases, the race as a timeline,
// the checker's explanation and how to reproduce it. A failure found under
// a controlled scheduler also prints a test to paste, which replays the
// shrunk case under its failing schedule and fails while the bug is there.
//
// Example:
//
//   TEST(Counter, IsLinearizable) {
//     merilo::testing::parallel_check(counter::Spec<>{}, {.seed = 42});
//   }
//   TEST(Counter, LosesNoUpdate) {   // the spec as built here goes into the pin
//     merilo::testing::parallel_check(MERILO_EXPR(CounterSpec{.lost_update = true}), {.seed = 1});
//   }
//   TEST(Pinned, LosesNoUpdate_statem_not_linearizable) {   // as a failure prints it
//     merilo::testing::expect_parallel_replay_ok(
//         CounterSpec{.lost_update = true},
//         "p2:1:0:2:6:4::3/7:0001:5b2e0c41d7a9f368");
//   }
//
// NOTE: this header includes <gtest/gtest.h>; link GTest::gtest yourself.
// The library itself (merilo::parallel) never depends on GoogleTest.
#ifndef MERILO_PARALLEL_GTEST_HPP
#define MERILO_PARALLEL_GTEST_HPP

#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <gtest/gtest.h>

#include <merilo/parallel/detail/glue.hpp>
#include <merilo/parallel/parallel.hpp>

namespace merilo::testing {

namespace detail {
/// The current gtest test's name ("Parallel" outside one).
inline std::string parallel_test_name() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return info != nullptr ? info->name() : "Parallel";
}
}  // namespace detail

/// Runs `parallel::check(spec, config)` and fails the current test, at the
/// caller's file and line (leave `file`, `line` and `spec_expr` alone), on a usage error
/// or a failing run (with `parallel::report` as the message, and a pinned
/// test when the failure was found under control: it builds the spec as
/// `Type{}` only when that fails the pin too; wrap the spec in `MERILO_EXPR`
/// to have it built your way). Returns the result for further assertions.
template <class S>
requires parallel::Spec<std::remove_cvref_t<S>>
    parallel::CheckResult<parallel::command_t<S>, parallel::response_t<S>> parallel_check(
        S&& spec, const parallel::CheckOptions& config, const char* file = __builtin_FILE(),
        int line = __builtin_LINE(), std::string_view spec_expr = {}) {
  auto r = parallel::check(std::forward<S>(spec), config);
  const std::string failure =
      parallel::detail::glue_failure<S>(r, {.gtest = true, .glue_namespace = "merilo::testing"},
                                        detail::parallel_test_name(), config, spec_expr);
  if (!failure.empty()) ADD_FAILURE_AT(file, line) << failure;
  return r;
}

/// `parallel_check` on `spec.value`, whose pinned test builds the spec
/// with `spec.text`, the caller's own expression:
/// `parallel_check(MERILO_EXPR(CounterSpec{.lost_update = true}), config)`.
template <class S>
requires parallel::Spec<S> parallel::CheckResult<parallel::command_t<S>, parallel::response_t<S>>
parallel_check(core::Spelled<S>&& spec, const parallel::CheckOptions& config,
               const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return parallel_check(std::move(spec.value), config, file, line, spec.text);
}

/// Replays the case and schedule of `token` (a failure's pin token) and
/// fails the current test, at the caller's line, while it fails (with the
/// report) or when the token no longer fits the spec.
template <class S>
requires parallel::Spec<std::remove_cvref_t<S>>
void expect_parallel_replay_ok(S&& spec, std::string_view token,
                               const parallel::CheckOptions& config = {},
                               const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  const std::string failure = parallel::detail::replay_failure(
      parallel::replay(std::forward<S>(spec), token, config), token);
  if (!failure.empty()) ADD_FAILURE_AT(file, line) << failure;
}

}  // namespace merilo::testing

#endif  // MERILO_PARALLEL_GTEST_HPP
