// merilo/statem/gtest.hpp — GoogleTest glue for statem.
//
// One call in a TEST runs a check and, when it fails, fails the test at the
// caller's file and line with the whole report: seed, run, original and
// shrunk lists, failing step, violation, shrink statistics and how to
// reproduce it. A usage error or a health failure (a check whose runs were
// mostly starved) fails the test too.
//
// Example:
//
//   TEST(Queue, BehavesLikeItsModel) {
//     merilo::testing::statem_check(QueueSpec{}, {.seed = 42, .test_count = 200});
//   }
//
// NOTE: this header includes <gtest/gtest.h>; link GTest::gtest yourself.
// The library itself (merilo::statem) never depends on GoogleTest.
#ifndef MERILO_STATEM_GTEST_HPP
#define MERILO_STATEM_GTEST_HPP

#include <string>
#include <type_traits>
#include <utility>

#include <gtest/gtest.h>

#include <merilo/statem/detail/glue.hpp>
#include <merilo/statem/statem.hpp>

namespace merilo::testing {

/// Runs `statem::check(spec, config)` and fails the current test, at the
/// caller's file and line (the defaulted `file`/`line` arguments; leave them
/// alone), on a usage error, a health failure or a failing run (with
/// `statem::report` as the message). Returns the result for further
/// assertions.
template <class S>
requires statem::Spec<std::remove_cvref_t<S>>
    statem::CheckResult<typename std::remove_cvref_t<S>::command_type> statem_check(
        S&& spec, const statem::CheckOptions& config, const char* file = __builtin_FILE(),
        int line = __builtin_LINE()) {
  auto r = statem::check(std::forward<S>(spec), config);
  const std::string failure = statem::detail::glue_failure(r);
  if (!failure.empty()) ADD_FAILURE_AT(file, line) << failure;
  return r;
}

}  // namespace merilo::testing

#endif  // MERILO_STATEM_GTEST_HPP
