// merilo/gtest.hpp — GoogleTest glue for every merilo checker.
//
// One call in a TEST runs a check and, when it finds something, fails the
// test at the caller's file and line with everything needed to act on it:
// the formatted trace or the shrunk case, how to reproduce it, and a
// ready-to-paste pinned test in GoogleTest's syntax. The calls, in
// `merilo::testing`:
//
//   explore, expect_replay_ok, expect_replay_finds, expect_total   (explore)
//   statem_check                                                    (statem)
//   parallel_check, expect_parallel_replay_ok                       (parallel)
//
// Example:
//
//   TEST(Turnstile, ExploresEveryWorld) {
//     turnstile::System<> sys;
//     merilo::testing::explore(sys, {.max_states = 100, .require_complete = true});
//   }
//   TEST(Queue, BehavesLikeItsModel) {
//     merilo::testing::statem_check(QueueSpec{}, {.seed = 42, .test_count = 200});
//   }
//   TEST(Counter, IsLinearizable) {
//     merilo::testing::parallel_check(counter::Spec<>{}, {.seed = 42});
//   }
//
// The same calls, with the same text, are in <merilo/catch2.hpp>
// (merilo::with_catch2) and <merilo/doctest.hpp> (merilo::with_doctest);
// detail/glue_calls.hpp holds them once for all three.
//
// NOTE: this header includes <gtest/gtest.h>; link GTest::gtest yourself
// and merilo::glue (which brings merilo::explore, merilo::statem and
// merilo::parallel). The checkers themselves never depend on GoogleTest.
#ifndef MERILO_GTEST_HPP
#define MERILO_GTEST_HPP

#include <string>  // test names, messages

#include <gtest/gtest.h>

#include <merilo/detail/glue_deps.hpp>

namespace merilo::testing {

namespace detail {

/// The framework whose syntax pinned tests are printed in.
inline constexpr core::Framework kFramework = core::Framework::googletest;

/// The running gtest test's name ("Pinned" outside one).
inline std::string test_name() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return info != nullptr ? info->name() : "Pinned";
}

/// Records a non-fatal failure with `message` at `file`:`line`, as
/// `ADD_FAILURE_AT` written at that line does.
inline void fail_at(const char* file, int line, const std::string& message) {
  ADD_FAILURE_AT(file, line) << message;
}

}  // namespace detail

#include <merilo/detail/glue_calls.hpp>  // NOLINT: the calls, in this namespace

}  // namespace merilo::testing

#endif  // MERILO_GTEST_HPP
