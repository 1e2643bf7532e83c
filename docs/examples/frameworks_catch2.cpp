// docs/examples/frameworks_catch2.cpp
#include <merilo/catch2.hpp>

#include <counter/spec.hpp>      // examples/counter: a parallel spec
#include <turnstile/system.hpp>  // examples/turnstile: an explore adapter

#include "tally_spec.hpp"  // a statem spec

TEST_CASE("the turnstile explores every world") {
  turnstile::System<> sys;
  auto r = merilo::with_catch2::explore(sys, {.max_states = 100, .require_complete = true});
  CHECK(r.states == 7);
}

TEST_CASE("the free pass stays fixed") {  // a trace once found, pinned
  turnstile::System<> sys;
  merilo::with_catch2::expect_replay_ok(sys, {turnstile::System<>::kPush});
}

TEST_CASE("the tally behaves like its model") {
  merilo::with_catch2::statem_check(tally::Spec{}, {.seed = 7, .test_count = 50});
}

TEST_CASE("the counter is linearizable") {
  merilo::with_catch2::parallel_check(counter::Spec<>{}, {.seed = 42, .test_count = 20});
}
