// mutex_test.cpp — the lock server and its clients checked every way: the
// machines' tables, the holder, the exhaustive search of the fixed server,
// the seeded duplicate grant found by the explorer and by the fuzz runner,
// and the pinned counterexample.
#include <merilo/fuzz/run.hpp>
#include <merilo/gtest.hpp>

#include <mutex/holder.hpp>
#include <mutex/system.hpp>

namespace {

namespace ex = merilo::explore;
namespace fz = merilo::fuzz;
using ex::Trace;
using ex::ViolationKind;
using mutex::Bug;
using mutex::Client;
using mutex::ClientEvent;
using mutex::ClientOp;
using mutex::ClientState;
using mutex::Op;
using mutex::Reply;
using mutex::Request;
using mutex::Server;
using mutex::ServerState;

// The shortest duplicate grant: c0 gets the lock, then c1's first request
// (number 1, like c0's) is taken for a duplicate of c0's and granted.
// Kinds: slot 0 is the oldest message in flight (the network keeps them
// sorted), so "deliver slot 0" delivers whatever is first.
using K = mutex::System<>;
const Trace kDuplicateGrant = {K::kWant + 0,      // c0 wants the lock
                               K::kDeliver + 0,   // its request reaches the server
                               K::kDeliver + 0,   // the grant reaches c0
                               K::kWant + 1,      // c1 wants the lock
                               K::kDeliver + 0,   // its request (number 1) reaches the server
                               K::kDeliver + 0};  // the duplicate grant reaches c1

template <class S>
void expect_server_total() {
  merilo::fsm::FireTable<S, Request> table{
      {S{}, S::make(), S::in(ServerState::held, 0, 1), S::in(ServerState::held, 1, 2)},
      {Request{}, Request{Op::acquire, 0, 1}, Request{Op::acquire, 1, 1},
       Request{Op::acquire, 0, 2}, Request{Op::release, 0, 1}, Request{Op::release, 1, 2}}};
  merilo::testing::expect_total(table);
}

TEST(Mutex, ServerHandlesEveryRequestInEveryState) {
  expect_server_total<Server<>>();
  expect_server_total<Server<Bug::duplicate_grant>>();
}

TEST(Mutex, ClientHandlesEveryEventInEveryState) {
  merilo::fsm::FireTable<Client, ClientEvent> table{
      {Client{}, Client::make(2), Client::in(ClientState::idle, 2, 2),
       Client::in(ClientState::waiting, 1, 2), Client::in(ClientState::holding, 1, 2)},
      {ClientEvent{}, ClientEvent{ClientOp::want, 0}, ClientEvent{ClientOp::grant, 1},
       ClientEvent{ClientOp::deny, 1}, ClientEvent{ClientOp::grant, 2},
       ClientEvent{ClientOp::release, 0}}};
  merilo::testing::expect_total(table);
}

TEST(Mutex, HolderGrantsDeniesAndRecognisesDuplicates) {
  mutex::LockService<> service;
  EXPECT_EQ(service.acquire(0, 1), Reply::granted);
  EXPECT_EQ(service.acquire(0, 1), Reply::granted);  // a duplicate: granted again
  EXPECT_EQ(service.acquire(1, 1), Reply::denied);
  EXPECT_EQ(service.acquire(1, 1), Reply::ignored);  // duplicate of a denied request
  EXPECT_EQ(service.release(1, 1), Reply::ignored);  // not the holder
  EXPECT_EQ(service.release(0, 1), Reply::ignored);  // released: no reply
  EXPECT_EQ(service.server().state(), ServerState::free);
  EXPECT_EQ(service.acquire(0, 1), Reply::ignored);  // a stale duplicate after release
  EXPECT_EQ(service.acquire(1, 2), Reply::granted);
  EXPECT_EQ(service.server().holder(), 1);
  EXPECT_EQ(service.acquire(5, 1), Reply::refused);  // no such client
  EXPECT_EQ(service.acquire(0, 0), Reply::refused);  // numbers start at 1
}

TEST(Mutex, BuggyHolderGrantsASecondClient) {
  mutex::LockService<Bug::duplicate_grant> service;
  EXPECT_EQ(service.acquire(0, 1), Reply::granted);
  EXPECT_EQ(service.acquire(1, 1), Reply::granted);  // the seeded bug
}

TEST(Mutex, ExploresEveryWorldOfTheFixedServer) {
  mutex::System<> sys;
  const ex::ExploreResult r = merilo::testing::explore(
      sys, {.max_states = 20'000, .require_complete = true, .quiet = true});
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.states, 1996u);
  EXPECT_EQ(r.depth, 19u);
  EXPECT_EQ(r.tuples.size(), 12u);
}

TEST(Mutex, SeededDuplicateGrantIsFoundWithTheShortestTrace) {
  mutex::System<Bug::duplicate_grant> sys;
  const ex::ExploreResult r = ex::explore(sys, {.max_states = 20'000, .quiet = true});
  ASSERT_EQ(r.violation.kind, ViolationKind::invariant);
  EXPECT_EQ(r.violation.invariant, "at most one client holds the lock");
  EXPECT_EQ(r.violation.trace, kDuplicateGrant);
}

TEST(Mutex, TheFuzzRunnerFindsTheDuplicateGrantFromTheExplorersTrace) {
  mutex::System<Bug::duplicate_grant> sys;
  const fz::FuzzBytes input = fz::to_fuzz_bytes(sys, kDuplicateGrant);
  ASSERT_TRUE(input.ok()) << input.error;
  const fz::Run r = fz::run(sys, input.bytes, 48);
  EXPECT_EQ(r.violation.kind, ViolationKind::invariant);
  EXPECT_EQ(r.violation.trace, kDuplicateGrant);
  EXPECT_EQ(r.input_steps, kDuplicateGrant.size());
}

TEST(Mutex, TheSeedsOfTheFixedServerRunCleanDrainIncluded) {
  mutex::System<> sys;
  const ex::ExploreResult search = ex::explore(sys, {.max_states = 20'000, .quiet = true});
  ASSERT_TRUE(search.complete);
  std::size_t settled = 0;
  for (const Trace& t : search.tuple_traces) {
    const fz::Run r = fz::run(sys, fz::to_fuzz_bytes(sys, t).bytes, 48);
    EXPECT_TRUE(r.ok()) << r.summary();
    settled += r.stop == fz::RunEnd::quiescent ? 1U : 0U;
  }
  // The drain finishes every seed: each client uses its requests and stops.
  EXPECT_EQ(settled, search.tuple_traces.size());
}

// Pinned: fails on the buggy server, passes on the fixed one (which denies
// c1, so the same kinds deliver a deny instead of a second grant).
TEST(Replay, MutexDuplicateGrant) {
  mutex::System<Bug::duplicate_grant> buggy;
  merilo::testing::expect_replay_finds(buggy, kDuplicateGrant, ViolationKind::invariant);
  mutex::System<> fixed;
  merilo::testing::expect_replay_ok(fixed, kDuplicateGrant);
}

}  // namespace
