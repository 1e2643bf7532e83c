// order_test.cpp — the payment order: totality, exhaustive search, a pinned
// trace, and the holder performing actions in order.
#include <merilo/gtest.hpp>

#include <order/holder.hpp>
#include <order/order.hpp>
#include <order/system.hpp>

#include <string>
#include <vector>

namespace {

using order::Event;
using order::Order;
using order::State;
using Sys = order::System;

TEST(Order, HandlesEveryEventInEveryState) {
  merilo::fsm::FireTable<Order, Event> table{
      {Order{}, Order::make(), Order::in(State::pending), Order::in(State::pending, 2),
       Order::in(State::paid), Order::in(State::failed, 2), Order::in(State::cancelled)},
      {Event::none, Event::submit, Event::ack, Event::timeout, Event::cancel},
      [](const Order& m, const Event& e) {
        return std::string(order::name(m.state())) + "/" + std::to_string(m.retries()) + " + " +
               std::string(order::name(e));
      }};
  merilo::testing::expect_total(table);
}

TEST(Order, GivesUpAfterItsRetriesInsteadOfWrapping) {
  Order o = Order::make().fire(Event::submit).next;
  for (int i = 0; i < 2; ++i) {
    auto [next, actions, outcome] = o.fire(Event::timeout);
    ASSERT_EQ(outcome, merilo::fsm::Outcome::moved);
    EXPECT_TRUE(actions.has(order::Action::resend));
    o = next;
  }
  auto [last, actions, outcome] = o.fire(Event::timeout);
  EXPECT_EQ(outcome, merilo::fsm::Outcome::moved);
  EXPECT_EQ(last.state(), State::failed);
  EXPECT_TRUE(actions.empty());
}

TEST(Order, ExploresEveryWorld) {
  Sys sys;
  const auto r = merilo::testing::explore(sys, {.max_states = 100'000, .require_complete = true});
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.states, 177u);
  EXPECT_EQ(r.depth, 9u);
  EXPECT_EQ(r.tuples, (std::vector<std::string>{
                          "order:cancelled provider:charged", "order:cancelled provider:idle",
                          "order:failed provider:charged", "order:failed provider:idle",
                          "order:idle provider:idle", "order:paid provider:charged",
                          "order:pending provider:charged", "order:pending provider:idle"}));
}

TEST(Order, ExploresTheSameWorldsOnFourThreads) {
  Sys one;
  Sys four;
  const auto a = merilo::explore::explore(one, {.max_states = 1000, .quiet = true});
  const auto b = merilo::explore::explore(four, {.max_states = 1000, .threads = 4, .quiet = true});
  EXPECT_EQ(a.states, b.states);
  EXPECT_EQ(a.tuple_traces, b.tuple_traces);
}

// Pinned: the happy path, submit -> charge delivered -> ack delivered.
TEST(Replay, OrderIsPaidAfterOneRoundTrip) {
  Sys sys;
  merilo::testing::expect_replay_ok(sys, {Sys::kSubmit, Sys::kDeliver, Sys::kDeliver});
  EXPECT_EQ(sys.world().order.state(), State::paid);
}

struct Recorder {
  std::vector<std::string> log;
  void send_charge() { log.emplace_back("send"); }
  void start_timer() { log.emplace_back("start"); }
  void cancel_timer() { log.emplace_back("cancel"); }
};

TEST(Holder, PerformsActionsInDeclarationOrderAndReportsRefusals) {
  Recorder env;
  order::Holder<Recorder> holder{env};
  EXPECT_EQ(holder.handle(Event::ack).what(), "rejected");
  EXPECT_FALSE(holder.handle(Event::submit));
  EXPECT_FALSE(holder.handle(Event::ack));
  EXPECT_EQ(env.log, (std::vector<std::string>{"send", "start", "cancel"}));
  EXPECT_EQ(holder.order().state(), State::paid);
}

}  // namespace
