// glue_test.cpp — the Catch2 and doctest glue pass what is correct and hand
// back each check's result (framework.hpp picks the framework). The cases
// that must fail, and how, are in glue_fails.cpp.
#include "framework.hpp"

#include <turnstile/system.hpp>

#include "../parallel/probe.hpp"
#include "../statem/systems.hpp"

namespace {

const merilo::explore::Trace kFreePass = {turnstile::System<>::kPush};

TEST_CASE("explore passes a correct system and returns its result") {
  turnstile::System<> sys;
  const auto r = glue::explore(sys, {.max_states = 100, .require_complete = true});
  CHECK(r.complete);
  CHECK(r.states == 7U);
}

TEST_CASE("a pinned trace passes on the fixed system and is found on the buggy one") {
  turnstile::System<> fixed;
  glue::expect_replay_ok(fixed, kFreePass);
  turnstile::System<turnstile::Bug::free_pass> buggy;
  glue::expect_replay_finds(buggy, kFreePass, merilo::explore::ViolationKind::invariant);
}

TEST_CASE("statem_check passes a correct spec and returns its result") {
  const auto r = glue::statem_check(statem_systems::counter::Spec{.buggy = false},
                                    {.seed = 1, .test_count = 50});
  CHECK(r.ok());
  CHECK(r.runs == 50U);
}

TEST_CASE("parallel_check passes a correct system and returns its result") {
  const auto r = glue::parallel_check(probe::Spec{}, {.seed = 3, .test_count = 10});
  CHECK(r.ok());
}

TEST_CASE("the glue knows the name of the running test case") {
  CHECK(glue::detail::test_name() == "the glue knows the name of the running test case");
}

}  // namespace
