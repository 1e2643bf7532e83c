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
#include <string_view>

#include <gtest/gtest.h>

#include <merilo/core/type_name.hpp>
#include <merilo/explore/explore.hpp>
#include <merilo/explore/replay.hpp>
#include <merilo/fsm/total.hpp>

namespace merilo::testing {

namespace detail {

/// "<TestName>_<kind>" for the current gtest test ("Pinned_<kind>" outside
/// one).
inline std::string pinned_name(explore::ViolationKind kind) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return explore::replay_test_name(info != nullptr ? info->name() : "Pinned", kind);
}

}  // namespace detail

// Each call reports failures at the caller's file and line (the defaulted
// `file`/`line` arguments; leave them alone).

/// Explores `sys` and fails the current test on a usage error, on a
/// violation (with its formatted trace and a paste-ready replay test), and on
/// truncation when `options.require_complete` is set. Returns the result for
/// further assertions.
template <explore::System S>
explore::ExploreResult explore(S& sys, const explore::ExploreOptions& options,
                               const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  explore::ExploreResult r = explore::explore(sys, options);
  if (!r.error.empty()) {
    ADD_FAILURE_AT(file, line) << r.error;
    return r;
  }
  if (r.violation.found()) {
    ADD_FAILURE_AT(file, line) << "merilo found a violation: " << r.violation.describe() << "\n\n"
                               << explore::format(sys, r.violation.trace)
                               << "\nPin it with this test, which fails while the bug is there:\n\n"
                               << explore::replay_test(
                                      "Replay", detail::pinned_name(r.violation.kind),
                                      core::type_name<S>() + "{}", r.violation.trace);
  } else if (options.require_complete && !r.complete) {
    ADD_FAILURE_AT(file, line) << "merilo: the search stopped at max_states=" << options.max_states
                               << " before checking every world (every world within depth "
                               << r.depth
                               << " was checked); raise max_states or shrink the system\n"
                               << r.summary();
  }
  return r;
}

/// Replays `trace` and fails the current test if it breaks a rule or no
/// longer fits, printing the formatted trace.
template <explore::System S>
void expect_replay_ok(S& sys, const explore::Trace& trace, const char* file = __builtin_FILE(),
                      int line = __builtin_LINE()) {
  const explore::Replayed r = explore::replay(sys, trace);
  if (!r.ok()) {
    ADD_FAILURE_AT(file, line) << "replay of " << explore::to_string(trace) << ": " << r.describe()
                               << "\n\n"
                               << explore::format(sys, trace);
  }
}

/// Replays `trace` and fails the current test unless it breaks a rule of
/// `kind` at its last step (a seeded bug is still found where it was).
template <explore::System S>
void expect_replay_finds(S& sys, const explore::Trace& trace, explore::ViolationKind kind,
                         const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  const explore::Replayed r = explore::replay(sys, trace);
  if (!r.error.empty() || r.violation.kind != kind || r.violation.trace != trace) {
    ADD_FAILURE_AT(file, line) << "expected " << explore::name(kind) << " at step " << trace.size()
                               << " of " << explore::to_string(trace) << ", got: " << r.describe()
                               << "\n\n"
                               << explore::format(sys, trace);
  }
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
