// examples_test.cpp — to_fuzz_bytes round-trips every shortest trace of
// every example: decoding the encoded trace replays it exactly.
#include <merilo/explore/explore.hpp>
#include <merilo/explore/replay.hpp>
#include <merilo/fuzz/input.hpp>
#include <merilo/fuzz/run.hpp>

#include <gtest/gtest.h>

#include <mutex/system.hpp>
#include <order/system.hpp>
#include <quorum/system.hpp>
#include <relay/system.hpp>
#include <turnstile/system.hpp>
#include <twophase/system.hpp>
#include <watchdog/system.hpp>

namespace {

namespace ex = merilo::explore;
namespace fz = merilo::fuzz;

// Searches `sys` and checks every tuple's shortest trace: its encoding runs
// exactly those kinds, all of them decided by the input's own choices.
template <class S>
void expect_round_trips(S sys, std::size_t expected_traces) {
  const ex::ExploreResult search = ex::explore(sys, {.max_states = 100'000, .quiet = true});
  ASSERT_TRUE(search.error.empty()) << search.error;
  ASSERT_EQ(search.tuple_traces.size(), expected_traces);
  for (const ex::Trace& t : search.tuple_traces) {
    const fz::FuzzBytes encoded = fz::to_fuzz_bytes(sys, t);
    ASSERT_TRUE(encoded.ok()) << encoded.error;
    const fz::Run r = fz::run(sys, encoded.bytes, t.size() + 1);
    ASSERT_TRUE(r.error.empty()) << r.error;
    ASSERT_GE(r.trace.size(), t.size()) << ex::to_string(t) << ": " << r.summary();
    EXPECT_EQ(ex::Trace(r.trace.begin(), r.trace.begin() + static_cast<std::ptrdiff_t>(t.size())),
              t);
    EXPECT_EQ(r.input_steps, t.size()) << ex::to_string(t);
    // The explorer saw no violation on the way to a tuple it stored, except
    // possibly at the violating world itself, which ends the trace.
    if (r.violation.found()) {
      EXPECT_EQ(r.violation.trace, t) << r.summary();
    }
  }
}

TEST(FuzzBytes, RoundTripsEveryShortestTraceOfTheTurnstile) {
  expect_round_trips(turnstile::System<>{}, 2);
  expect_round_trips(turnstile::System<turnstile::Bug::free_pass>{}, 2);
}

TEST(FuzzBytes, RoundTripsEveryShortestTraceOfTheOrder) { expect_round_trips(order::System{}, 8); }

TEST(FuzzBytes, RoundTripsEveryShortestTraceOfTheMutex) {
  expect_round_trips(mutex::System<>{}, 12);
  expect_round_trips(mutex::System<mutex::Bug::duplicate_grant>{}, 13);
}

TEST(FuzzBytes, RoundTripsEveryShortestTraceOfTwoPhaseCommit) {
  expect_round_trips(twophase::System<>{}, 58);
  expect_round_trips(twophase::System<twophase::Bugs{.commit_on_first_yes = true}>{}, 17);
  expect_round_trips(twophase::System<twophase::Bugs{.log_after_ack = true}>{}, 58);
}

TEST(FuzzBytes, RoundTripsEveryShortestTraceOfTheWatchdog) {
  expect_round_trips(watchdog::System<>{}, 3);
  expect_round_trips(watchdog::System<watchdog::Bug::narrow_generation>{}, 3);
}

TEST(FuzzBytes, RoundTripsEveryShortestTraceOfTheRelay) {
  expect_round_trips(relay::System<>{}, 41);
}

TEST(FuzzBytes, RoundTripsEveryShortestTraceOfTheQuorumRegister) {
  expect_round_trips(quorum::System<>{}, 14);
  expect_round_trips(quorum::System<quorum::Bug::half_quorum, 6>{}, 15);
}

}  // namespace
