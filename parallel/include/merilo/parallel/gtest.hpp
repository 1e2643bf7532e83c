// merilo/parallel/gtest.hpp — GoogleTest glue for the parallel tester.
//
// One call in a TEST runs a check and, when it fails, fails the test at the
// caller's line with the whole report: the cases, the race as a timeline,
// the checker's explanation and how to reproduce it.
//
// Example:
//
//   TEST(Counter, IsLinearizable) {
//     merilo::testing::parallel_check(counter::Spec<>{}, {.seed = 42});
//   }
//
// NOTE: this header includes <gtest/gtest.h>; link GTest::gtest yourself.
// The library itself (merilo::parallel) never depends on GoogleTest.
#ifndef MERILO_PARALLEL_GTEST_HPP
#define MERILO_PARALLEL_GTEST_HPP

#include <string>
#include <type_traits>
#include <utility>

#include <gtest/gtest.h>

#include <merilo/parallel/detail/glue.hpp>
#include <merilo/parallel/parallel.hpp>

namespace merilo::testing {

/// Runs `parallel::check(spec, config)` and fails the current test, at the
/// caller's file and line (leave `file` and `line` alone), on a usage error
/// or a failing run (with `parallel::report` as the message). Returns the
/// result for further assertions.
template <class S>
requires parallel::Spec<std::remove_cvref_t<S>>
    parallel::CheckResult<parallel::command_t<S>, parallel::response_t<S>> parallel_check(
        S&& spec, const parallel::CheckConfig& config, const char* file = __builtin_FILE(),
        int line = __builtin_LINE()) {
  auto r = parallel::check(std::forward<S>(spec), config);
  const std::string failure = parallel::detail::glue_failure(r);
  if (!failure.empty()) ADD_FAILURE_AT(file, line) << failure;
  return r;
}

}  // namespace merilo::testing

#endif  // MERILO_PARALLEL_GTEST_HPP
