// merilo/parallel/catch2.hpp — Catch2 glue for the parallel tester.
//
// One call in a TEST_CASE runs a check and, when it fails, fails the test
// case at the caller's file and line with the whole report: the cases, the
// race as a timeline, the checker's explanation and how to reproduce it.
// The same text as the GoogleTest glue (gtest.hpp).
//
// Example:
//
//   TEST_CASE("the counter is linearizable") {
//     merilo::with_catch2::parallel_check(counter::Spec<>{}, {.seed = 42});
//   }
//
// NOTE: this header includes Catch2; link Catch2 yourself (`Catch2::Catch2WithMain`). The library
// itself (merilo::parallel) never depends on Catch2.
#ifndef MERILO_PARALLEL_CATCH2_HPP
#define MERILO_PARALLEL_CATCH2_HPP

#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <merilo/core/catch2.hpp>
#include <merilo/parallel/detail/glue.hpp>
#include <merilo/parallel/parallel.hpp>

namespace merilo::with_catch2 {

/// Runs `parallel::check(spec, config)` and fails the current test case, at
/// the caller's file and line (leave `file`, `line` and `spec_expr` alone), on a usage
/// error or a failing run (with `parallel::report` as the message, and a
/// pinned `TEST_CASE` when the failure was found under control: it builds
/// the spec as `Type{}` only when that fails the pin too; wrap the spec in
/// `MERILO_EXPR` to have it built your way). Returns the result for further
/// checks.
template <class S>
requires parallel::Spec<std::remove_cvref_t<S>>
    parallel::CheckResult<parallel::command_t<S>, parallel::response_t<S>> parallel_check(
        S&& spec, const parallel::CheckOptions& config, const char* file = __builtin_FILE(),
        int line = __builtin_LINE(), std::string_view spec_expr = {}) {
  auto r = parallel::check(std::forward<S>(spec), config);
  const std::string failure = parallel::detail::glue_failure<S>(
      r, {.gtest = false, .glue_namespace = "merilo::with_catch2"}, core::with_catch2::test_name(),
      config, spec_expr);
  if (!failure.empty()) core::with_catch2::fail_at(file, line, failure);
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
/// fails the current test case, at the caller's line, while it fails or
/// when the token no longer fits the spec.
template <class S>
requires parallel::Spec<std::remove_cvref_t<S>>
void expect_parallel_replay_ok(S&& spec, std::string_view token,
                               const parallel::CheckOptions& config = {},
                               const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  const std::string failure = parallel::detail::replay_failure(
      parallel::replay(std::forward<S>(spec), token, config), token);
  if (!failure.empty()) core::with_catch2::fail_at(file, line, failure);
}

}  // namespace merilo::with_catch2

#endif  // MERILO_PARALLEL_CATCH2_HPP
