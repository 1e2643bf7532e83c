// merilo/explore/gtest.hpp — GoogleTest glue for explore, replay and total.
//
// One call in a TEST runs a check and turns what it found into a test
// failure that carries everything needed to act on it: the formatted trace
// and a ready-to-paste replay test.
//
// Example:
//
//   TEST(Turnstile, ExploresEveryWorld) {
//     turnstile::System sys;
//     merilo::testing::explore(sys, {.max_states = 100, .require_complete = true});
//   }
//
//   TEST(Turnstile, PinnedCounterexampleStaysFixed) {
//     turnstile::System sys;
//     merilo::testing::expect_replay_ok(sys, {0, 1, 1});
//   }
//
// NOTE: this header includes <gtest/gtest.h>; link GTest::gtest yourself.
// The library itself (merilo::explore) never depends on GoogleTest.
#ifndef MERILO_EXPLORE_GTEST_HPP
#define MERILO_EXPLORE_GTEST_HPP

#include <string>

#include <gtest/gtest.h>

#include <merilo/explore/explore.hpp>
#include <merilo/explore/framework.hpp>
#include <merilo/explore/replay.hpp>
#include <merilo/fsm/total.hpp>

namespace merilo::testing {

namespace detail {

/// The current gtest test's name ("Pinned" outside one).
inline std::string test_name() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return info != nullptr ? info->name() : "Pinned";
}

}  // namespace detail

// Each call reports failures at the caller's file and line (the defaulted
// `file`/`line` arguments; leave them alone). The failure text is
// explore/framework.hpp's, shared with the Catch2 and doctest glue.

/// Explores `sys` and fails the current test on a usage error, on a
/// violation (with its formatted trace and a paste-ready replay test; with
/// the environment variable `MERILO_TRACE_HTML=DIR`, also the trace as an
/// HTML page in DIR), and on truncation when `options.require_complete` is
/// set. Returns the result for further assertions.
template <explore::System S>
explore::ExploreResult explore(S& sys, const explore::ExploreOptions& options,
                               const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  explore::ExploreResult r = explore::explore(sys, options);
  const std::string failure = explore::explore_failure(
      sys, options, r, explore::Framework::googletest, detail::test_name());
  if (!failure.empty()) ADD_FAILURE_AT(file, line) << failure;
  return r;
}

/// `explore` on `sys.value`, whose pinned test builds the system with
/// `sys.text`, the caller's own expression:
/// `explore(MERILO_EXPR(turnstile::System<>{}), options)`. Without it the
/// pinned test builds `S{}`, and only when that breaks the same rule.
template <explore::System S>
explore::ExploreResult explore(core::Spelled<S>&& sys, const explore::ExploreOptions& options,
                               const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  explore::ExploreResult r = explore::explore(sys.value, options);
  const std::string failure =
      explore::explore_failure(sys.value, options, r, explore::Framework::googletest,
                               detail::test_name(), std::string(sys.text));
  if (!failure.empty()) ADD_FAILURE_AT(file, line) << failure;
  return r;
}

/// Replays `trace` and fails the current test if it breaks a rule or no
/// longer fits, printing the formatted trace.
template <explore::System S>
void expect_replay_ok(S& sys, const explore::Trace& trace, const char* file = __builtin_FILE(),
                      int line = __builtin_LINE()) {
  const std::string failure = explore::replay_ok_failure(sys, trace);
  if (!failure.empty()) ADD_FAILURE_AT(file, line) << failure;
}

/// Replays `trace` and fails the current test unless it breaks a rule of
/// `kind` at its last step (a seeded bug is still found where it was).
template <explore::System S>
void expect_replay_finds(S& sys, const explore::Trace& trace, explore::ViolationKind kind,
                         const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  const std::string failure = explore::replay_finds_failure(sys, trace, kind);
  if (!failure.empty()) ADD_FAILURE_AT(file, line) << failure;
}

/// Fires every event at every machine of `table` and fails the current test
/// with every pair that broke a rule.
template <fsm::Totality T>
void expect_total(const T& table, const char* file = __builtin_FILE(),
                  int line = __builtin_LINE()) {
  const fsm::TotalResult r = fsm::total(table);
  if (!r.ok()) ADD_FAILURE_AT(file, line) << r.report();
}

}  // namespace merilo::testing

#endif  // MERILO_EXPLORE_GTEST_HPP
