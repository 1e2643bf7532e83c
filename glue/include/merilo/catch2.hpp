// merilo/catch2.hpp — Catch2 glue for every merilo checker.
//
// One call in a TEST_CASE runs a check and, when it finds something,
// records one failed check at the caller's file and line — as a
// `FAIL_CHECK` written there would, so the test case goes on and Catch2's
// report points at the user's line — with everything needed to act on it:
// the formatted trace or the shrunk case, how to reproduce it, and a
// ready-to-paste pinned test in Catch2's syntax
// (`TEST_CASE("<test>: pinned <kind>")`). The calls, in
// `merilo::with_catch2`:
//
//   explore, expect_replay_ok, expect_replay_finds, expect_total   (explore)
//   statem_check                                                    (statem)
//   parallel_check, expect_parallel_replay_ok                       (parallel)
//
// Example:
//
//   TEST_CASE("turnstile explores every world") {
//     turnstile::System<> sys;
//     merilo::with_catch2::explore(sys, {.max_states = 100, .require_complete = true});
//   }
//   TEST_CASE("the counter is linearizable") {
//     merilo::with_catch2::parallel_check(counter::Spec<>{}, {.seed = 42});
//   }
//
// The text is the same as the GoogleTest glue's (<merilo/gtest.hpp>). Works
// with Catch2 v2 (`<catch2/catch.hpp>`, Debian 12's `catch2`) and v3
// (`<catch2/catch_test_macros.hpp>`).
//
// NOTE: this header includes Catch2; link Catch2 yourself
// (`Catch2::Catch2WithMain`) and merilo::glue. The checkers themselves never
// depend on Catch2. The calls live in `merilo::with_catch2`, apart from the
// GoogleTest glue's `merilo::testing`, so a program may hold tests of both.
#ifndef MERILO_CATCH2_HPP
#define MERILO_CATCH2_HPP

#include <cstddef>  // std::size_t
#include <string>   // test names, messages

#if __has_include(<catch2/catch_test_macros.hpp>)
#include <catch2/catch_test_macros.hpp>  // Catch2 v3
#else
#include <catch2/catch.hpp>  // Catch2 v2
#endif

#include <merilo/detail/glue_deps.hpp>

namespace merilo::with_catch2 {

namespace detail {

/// The framework whose syntax pinned tests are printed in.
inline constexpr core::Framework kFramework = core::Framework::catch2;

/// The running test case's name ("Pinned" outside one).
inline std::string test_name() {
  std::string name = Catch::getResultCapture().getCurrentTestName();
  return name.empty() ? std::string("Pinned") : name;
}

/// Records a failed, non-fatal assertion with `message` at `file`:`line`
/// in the running test case: what `FAIL_CHECK(message)` written at that
/// line records.
inline void fail_at(const char* file, int line, const std::string& message) {
  Catch::AssertionHandler handler("FAIL_CHECK",
                                  Catch::SourceLineInfo(file, static_cast<std::size_t>(line)),
                                  Catch::StringRef(), Catch::ResultDisposition::ContinueOnFailure);
  handler.handleMessage(Catch::ResultWas::ExplicitFailure, std::string(message));
  handler.complete();
}

}  // namespace detail

#include <merilo/detail/glue_calls.hpp>  // NOLINT: the calls, in this namespace

}  // namespace merilo::with_catch2

#endif  // MERILO_CATCH2_HPP
