// merilo/doctest.hpp — doctest glue for every merilo checker.
//
// One call in a TEST_CASE runs a check and, when it finds something,
// records one failed check at the caller's file and line (doctest's
// `ADD_FAIL_CHECK_AT`), so the test case goes on and doctest's report
// points at the user's line, with everything needed to act on it: the
// formatted trace or the shrunk case, how to reproduce it, and a
// ready-to-paste pinned test in doctest's syntax
// (`TEST_CASE("<test>: pinned <kind>")`). The calls, in
// `merilo::with_doctest`:
//
//   explore, expect_replay_ok, expect_replay_finds, expect_total   (explore)
//   statem_check                                                    (statem)
//   parallel_check, expect_parallel_replay_ok                       (parallel)
//
// Example:
//
//   TEST_CASE("turnstile explores every world") {
//     turnstile::System<> sys;
//     merilo::with_doctest::explore(sys, {.max_states = 100, .require_complete = true});
//   }
//   TEST_CASE("the queue behaves like its model") {
//     merilo::with_doctest::statem_check(QueueSpec{}, {.seed = 42, .test_count = 200});
//   }
//
// The text is the same as the GoogleTest glue's (<merilo/gtest.hpp>).
//
// NOTE: this header includes <doctest/doctest.h>; link doctest yourself
// (`doctest::doctest`) and merilo::glue, and define doctest's main in one
// file of the program. The checkers themselves never depend on doctest. The
// calls live in `merilo::with_doctest`, apart from the GoogleTest glue's
// `merilo::testing`, so a program may hold tests of both.
#ifndef MERILO_DOCTEST_HPP
#define MERILO_DOCTEST_HPP

#include <string>  // test names, messages

#include <doctest/doctest.h>

#include <merilo/detail/glue_deps.hpp>

namespace merilo::with_doctest {

namespace detail {

/// The framework whose syntax pinned tests are printed in.
inline constexpr core::Framework kFramework = core::Framework::doctest;

/// The running test case's name ("Pinned" outside one).
inline std::string test_name() {
  const ::doctest::ContextOptions* options = ::doctest::getContextOptions();
  if (options == nullptr || options->currentTest == nullptr) return "Pinned";
  const ::doctest::TestCaseData& test = *options->currentTest;
  return test.m_name != nullptr && *test.m_name != '\0' ? test.m_name : "Pinned";
}

/// Records a failed check with `message` at `file`:`line` in the running
/// test case.
inline void fail_at(const char* file, int line, const std::string& message) {
  DOCTEST_ADD_FAIL_CHECK_AT(file, line, message);
}

}  // namespace detail

#include <merilo/detail/glue_calls.hpp>  // NOLINT: the calls, in this namespace

}  // namespace merilo::with_doctest

#endif  // MERILO_DOCTEST_HPP
