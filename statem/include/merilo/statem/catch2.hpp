// merilo/statem/catch2.hpp — Catch2 glue for statem.
//
// One call in a TEST_CASE runs a check and, when it fails, fails the test
// case at the caller's file and line with the whole report: seed, run,
// original and shrunk lists, failing step, violation, shrink statistics and
// how to reproduce it. A usage error or a health failure (a check whose
// runs were mostly starved) fails it too. The same text as the GoogleTest
// glue (gtest.hpp).
//
// Example:
//
//   TEST_CASE("the queue behaves like its model") {
//     merilo::with_catch2::statem_check(QueueSpec{}, {.seed = 42, .test_count = 200});
//   }
//
// NOTE: this header includes Catch2; link Catch2 yourself (`Catch2::Catch2WithMain`). The library
// itself (merilo::statem) never depends on Catch2.
#ifndef MERILO_STATEM_CATCH2_HPP
#define MERILO_STATEM_CATCH2_HPP

#include <string>
#include <type_traits>
#include <utility>

#include <merilo/core/catch2.hpp>
#include <merilo/statem/detail/glue.hpp>
#include <merilo/statem/statem.hpp>

namespace merilo::with_catch2 {

/// Runs `statem::check(spec, config)` and fails the current test case, at
/// the caller's file and line (leave `file` and `line` alone), on a usage
/// error, a health failure or a failing run (with `statem::report` as the
/// message). Returns the result for further checks.
template <class S>
requires statem::Spec<std::remove_cvref_t<S>>
    statem::CheckResult<typename std::remove_cvref_t<S>::command_type> statem_check(
        S&& spec, const statem::CheckOptions& config, const char* file = __builtin_FILE(),
        int line = __builtin_LINE()) {
  auto r = statem::check(std::forward<S>(spec), config);
  const std::string failure = statem::detail::glue_failure(r);
  if (!failure.empty()) core::with_catch2::fail_at(file, line, failure);
  return r;
}

}  // namespace merilo::with_catch2

#endif  // MERILO_STATEM_CATCH2_HPP
