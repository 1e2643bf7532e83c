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
//   TEST(Counter, Pinned) {   // as printed by a failure
//     merilo::testing::expect_parallel_replay_ok(counter::Spec<counter::Bug::lost_update>{},
//                                                "p1:1:0:2:6:4::6/7:01");
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

#include <merilo/core/type_name.hpp>
#include <merilo/parallel/parallel.hpp>

namespace merilo::testing {

namespace detail {

/// A paste-ready test that replays `failure` exactly, named after the
/// current test and the violation's tag.
template <class S, class Cmd, class Resp>
std::string pinned_parallel_test(const parallel::Failure<Cmd, Resp>& failure) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = info != nullptr ? info->name() : "Parallel";
  std::string tag = failure.violation.tag;
  for (char& c : tag) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) c = '_';
  }
  return "TEST(Pinned, " + name + "_" + tag + ") {\n  merilo::testing::expect_parallel_replay_ok(" +
         core::type_name<std::remove_cvref_t<S>>() + "{}, \"" + parallel::pin_token(failure) +
         "\");\n}\n";
}

}  // namespace detail

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
  if (!r.error.empty()) {
    ADD_FAILURE_AT(file, line) << r.error;
  } else if (r.failure) {
    std::string pin;
    if (parallel::is_controlled(r.failure->scheduling.scheduler)) {
      pin = "\nPin it with this test, which replays the shrunk case under its schedule and fails "
            "while the bug is there:\n\n" +
            detail::pinned_parallel_test<S>(*r.failure);
    }
    ADD_FAILURE_AT(file, line) << parallel::report(*r.failure) << pin;
  }
  return r;
}

/// Replays the case and schedule of `token` (a failure's pin token) and
/// fails the current test, at the caller's line, while it fails (with the
/// report) or when the token no longer fits the spec.
template <class S>
requires parallel::Spec<std::remove_cvref_t<S>>
void expect_parallel_replay_ok(S&& spec, std::string_view token,
                               const parallel::CheckConfig& config = {},
                               const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  auto r = parallel::replay(std::forward<S>(spec), token, config);
  if (!r.error.empty()) {
    ADD_FAILURE_AT(file, line) << r.error;
  } else if (r.failure) {
    ADD_FAILURE_AT(file, line) << "replay of " << token << " failed:\n"
                               << parallel::report(*r.failure);
  }
}

}  // namespace merilo::testing

#endif  // MERILO_PARALLEL_GTEST_HPP
