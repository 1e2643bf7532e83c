// merilo/explore/doctest.hpp — doctest glue for explore, replay and total.
//
// The counterpart of the GoogleTest glue (gtest.hpp) for doctest users: one call in a
// TEST_CASE runs a check and turns what it found into a failed check at the
// caller's file and line that carries everything needed to act on it: the
// formatted trace and a ready-to-paste pinned test, in doctest's syntax
// (`TEST_CASE("<test>: pinned <kind>")`). With the environment variable
// `MERILO_TRACE_HTML=DIR`, the trace is also written to DIR as an HTML page
// (html.hpp). The text is explore/framework.hpp's, the same in every
// framework's glue.
//
// Example:
//
//   TEST_CASE("turnstile explores every world") {
//     turnstile::System<> sys;
//     merilo::with_doctest::explore(sys, {.max_states = 100, .require_complete = true});
//   }
//
//   TEST_CASE("the free pass stays fixed") {
//     turnstile::System<> sys;
//     merilo::with_doctest::expect_replay_ok(sys, {turnstile::System<>::kPush});
//   }
//
// NOTE: this header includes <doctest/doctest.h>; link doctest yourself (`doctest::doctest`) and
// define its main in one file. The library itself (merilo::explore) never depends on doctest. The
// functions live in `merilo::with_doctest`, apart from the GoogleTest glue's `merilo::testing`, so
// a program may hold tests of both frameworks.
#ifndef MERILO_EXPLORE_DOCTEST_HPP
#define MERILO_EXPLORE_DOCTEST_HPP

#include <string>

#include <merilo/core/doctest.hpp>
#include <merilo/explore/explore.hpp>
#include <merilo/explore/framework.hpp>
#include <merilo/explore/replay.hpp>
#include <merilo/fsm/total.hpp>

namespace merilo::with_doctest {

// Each call reports failures at the caller's file and line (the defaulted
// `file`/`line` arguments; leave them alone).

/// Explores `sys` and fails the current test case on a usage error, on a
/// violation (with its formatted trace and a pinned `TEST_CASE`), and on
/// truncation when `options.require_complete` is set. Returns the result for
/// further checks.
template <explore::System S>
explore::ExploreResult explore(S& sys, const explore::ExploreOptions& options,
                               const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  explore::ExploreResult r = explore::explore(sys, options);
  const std::string failure = explore::explore_failure(sys, options, r, explore::Framework::doctest,
                                                       core::with_doctest::test_name());
  if (!failure.empty()) core::with_doctest::fail_at(file, line, failure);
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
      explore::explore_failure(sys.value, options, r, explore::Framework::doctest,
                               core::with_doctest::test_name(), std::string(sys.text));
  if (!failure.empty()) core::with_doctest::fail_at(file, line, failure);
  return r;
}

/// Replays `trace` and fails the current test case if it breaks a rule or
/// no longer fits, printing the formatted trace.
template <explore::System S>
void expect_replay_ok(S& sys, const explore::Trace& trace, const char* file = __builtin_FILE(),
                      int line = __builtin_LINE()) {
  const std::string failure = explore::replay_ok_failure(sys, trace);
  if (!failure.empty()) core::with_doctest::fail_at(file, line, failure);
}

/// Replays `trace` and fails the current test case unless it breaks a rule
/// of `kind` at its last step (a seeded bug is still found where it was).
template <explore::System S>
void expect_replay_finds(S& sys, const explore::Trace& trace, explore::ViolationKind kind,
                         const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  const std::string failure = explore::replay_finds_failure(sys, trace, kind);
  if (!failure.empty()) core::with_doctest::fail_at(file, line, failure);
}

/// Fires every event at every machine of `table` and fails the current test
/// case with every pair that broke a rule.
template <fsm::Totality T>
void expect_total(const T& table, const char* file = __builtin_FILE(),
                  int line = __builtin_LINE()) {
  const fsm::TotalResult r = fsm::total(table);
  if (!r.ok()) core::with_doctest::fail_at(file, line, r.report());
}

}  // namespace merilo::with_doctest

#endif  // MERILO_EXPLORE_DOCTEST_HPP
