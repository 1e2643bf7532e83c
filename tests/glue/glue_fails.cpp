// glue_fails.cpp — every case here fails, the framework's way: each is run
// alone by a ctest (tests/glue/CMakeLists.txt) that expects the program to
// fail and its output to hold the failed check at this file's line, the
// trace and the pinned test (framework.hpp picks Catch2 or doctest).
#include "framework.hpp"

#include <turnstile/system.hpp>

#include "../parallel/controlled_systems.hpp"
#include "../parallel/probe.hpp"
#include "../statem/systems.hpp"

namespace {

using merilo::explore::ViolationKind;

TEST_CASE("explore reports the free pass") {
  turnstile::System<turnstile::Bug::free_pass> sys;
  glue::explore(sys, {.max_states = 100});
}

TEST_CASE("a search cut short fails when it must be complete") {
  turnstile::System<> sys;
  glue::explore(sys, {.max_states = 3, .require_complete = true});
}

TEST_CASE("a replay that breaks a rule fails") {
  turnstile::System<turnstile::Bug::free_pass> sys;
  glue::expect_replay_ok(sys, {turnstile::System<>::kPush});
}

TEST_CASE("a replay that no longer finds the bug fails") {
  turnstile::System<> fixed;
  glue::expect_replay_finds(fixed, {turnstile::System<>::kPush}, ViolationKind::invariant);
}

// The pinned test "explore reports the free pass" prints, pasted verbatim:
// it fails while the bug is there.
#if defined(MERILO_GLUE_CATCH2)
TEST_CASE("explore reports the free pass: pinned invariant") {
  auto sys = turnstile::System<turnstile::Bug::free_pass>{};
  merilo::with_catch2::expect_replay_ok(sys, merilo::explore::Trace{1});
}
#else
TEST_CASE("explore reports the free pass: pinned invariant") {
  auto sys = turnstile::System<turnstile::Bug::free_pass>{};
  merilo::with_doctest::expect_replay_ok(sys, merilo::explore::Trace{1});
}
#endif

TEST_CASE("statem_check reports the shrunk failing list") {
  glue::statem_check(statem_systems::counter::Spec{}, {.seed = 1});
}

TEST_CASE("statem_check reports a usage error") {
  glue::statem_check(statem_systems::counter::Spec{}, {});
}

TEST_CASE("parallel_check reports the failing case") {
  probe::Spec spec;
  spec.hooks->in_finish = [] {
    return merilo::statem::Violation{"probe.audit", "books do not balance"};
  };
  glue::parallel_check(spec, {.seed = 3, .max_shrinks = 5});
}

TEST_CASE("explore pins a test case whose name is longer than any console reporter line") {
  turnstile::System<turnstile::Bug::free_pass> sys;
  glue::explore(sys, {.max_states = 50});
}

TEST_CASE("parallel_check pins the spec as the caller built it") {
  glue::parallel_check(MERILO_EXPR(controlled::CounterSpec{.racy = true}), {.seed = 5});
}

TEST_CASE("parallel_check prints no pin that would build the fixed spec") {
  glue::parallel_check(controlled::CounterSpec{.racy = true}, {.seed = 5});
}

// What the cases above print, pasted verbatim (only a comment added to tell
// the calls apart): the long name and the token as short adjacent literals
// no console wrapping breaks, the spec as the caller built it. Each fails
// while the bug is there.
// clang-format off
#if defined(MERILO_GLUE_CATCH2)
TEST_CASE("explore pins a test case whose name is longer "
      "than any console reporter line (pinned "
      "invariant)") {
    auto sys = turnstile::System<turnstile::Bug::free_pass>{};
    merilo::with_catch2::expect_replay_ok(sys, merilo::explore::Trace{1});  // long name
  }
TEST_CASE("parallel_check pins the spec as the caller "
      "built it (pinned parallel.not_linearizable)") {
    merilo::with_catch2::expect_parallel_replay_ok(  // long name
        controlled::CounterSpec{.racy = true},
        "p2:5:1:2:6:4::6/8:0001:c81b0a30398d7d32");
  }
#else
TEST_CASE("explore pins a test case whose name is longer "
    "than any console reporter line (pinned "
    "invariant)") {
  auto sys = turnstile::System<turnstile::Bug::free_pass>{};
  merilo::with_doctest::expect_replay_ok(sys, merilo::explore::Trace{1});  // long name
}
TEST_CASE("parallel_check pins the spec as the caller "
    "built it (pinned parallel.not_linearizable)") {
  merilo::with_doctest::expect_parallel_replay_ok(  // long name
      controlled::CounterSpec{.racy = true},
      "p2:5:1:2:6:4::6/8:0001:c81b0a30398d7d32");
}
#endif
// clang-format on

}  // namespace
