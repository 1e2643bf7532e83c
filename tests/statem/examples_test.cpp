// One definition, several verifications: the examples' machines as statem
// models of their production holders (examples/order, examples/mutex).
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <merilo/statem/machine.hpp>
#include <mutex/holder.hpp>
#include <mutex/server.hpp>
#include <order/holder.hpp>
#include <order/order.hpp>

namespace st = merilo::statem;
namespace fsm = merilo::fsm;

// The examples' machines and requests, described for the bridge's reports
// (found by argument-dependent lookup in their own namespaces).
namespace order {
std::string merilo_describe(const Order& o) {
  return fmt::format("{}(retries={})", name(o.state()), o.retries());
}
}  // namespace order

namespace mutex {
std::string merilo_describe(const Request& r) {
  return fmt::format("{}(c{}, {})", name(r.op), r.client, r.seq);
}
template <Bug bug>
std::string merilo_describe(const Server<bug>& s) {
  return s.state() == ServerState::held ? fmt::format("held by c{}", s.holder())
                                        : std::string(name(s.state()));
}
}  // namespace mutex

namespace {

// ---- order: the Holder over a recording environment -----------------------------

/// The environment the order holder performs its actions on, counting them.
struct Recorder {
  int sends = 0;
  int starts = 0;
  int cancels = 0;
  void send_charge() { ++sends; }
  void start_timer() { ++starts; }
  void cancel_timer() { ++cancels; }
};

/// What the holder did with one event: refused or not, and the actions it
/// performed (counted).
struct OrderResponse {
  bool refused = false;
  int sends = 0;
  int starts = 0;
  int cancels = 0;
  friend bool operator==(const OrderResponse&, const OrderResponse&) = default;
};

template <order::HolderBug bug>
struct OrderRig {
  Recorder env;
  order::Holder<Recorder, bug> holder{env};
};

template <order::HolderBug bug>
struct OrderBinding {
  using machine_type = order::Order;
  using event_type = order::Event;
  using sut_type = std::unique_ptr<OrderRig<bug>>;
  using response_type = OrderResponse;

  order::Order initial() const { return order::Order::make(); }
  st::Gen<order::Event> events(const order::Order& /*m*/) const {
    using order::Event;
    return st::element_of<Event>({Event::submit, Event::ack, Event::timeout, Event::cancel});
  }
  sut_type new_sut() const { return std::make_unique<OrderRig<bug>>(); }
  OrderResponse apply(sut_type& rig, order::Event e) const {
    const Recorder before = rig->env;
    const bool refused = static_cast<bool>(rig->holder.handle(e));
    return {refused, rig->env.sends - before.sends, rig->env.starts - before.starts,
            rig->env.cancels - before.cancels};
  }
  OrderResponse expected(const order::Order& /*before*/, order::Event /*e*/,
                         const fsm::Fired<order::Order, order::Action>& f) const {
    using order::Action;
    const auto count = [&f](Action a) { return f.actions.has(a) ? 1 : 0; };
    return {static_cast<bool>(fsm::err(f.outcome)), count(Action::send) + count(Action::resend),
            count(Action::start_timer), count(Action::cancel_timer)};
  }
  order::Order observe(const sut_type& rig) const { return rig->holder.order(); }
};

std::string merilo_describe(const OrderResponse& r) {
  return fmt::format("{} sends={} starts={} cancels={}", r.refused ? "refused" : "ok", r.sends,
                     r.starts, r.cancels);
}

template <order::HolderBug bug>
std::vector<std::string> order_shrunk(std::uint64_t seed) {
  auto r = st::check(st::machine_spec(OrderBinding<bug>{}), {.seed = seed});
  std::vector<std::string> out;
  if (!r.failure) return {"(passed)"};
  EXPECT_EQ(r.failure->violation.tag, st::kResponseTag);
  for (const auto& c : r.failure->shrunk) out.push_back(merilo::core::describe(c));
  return out;
}

// ---- mutex: the LockService against the correct Server -----------------------------

template <mutex::Bug bug>
struct LockBinding {
  using machine_type = mutex::Server<mutex::Bug::none>;  // the model is always the correct server
  using event_type = mutex::Request;
  using sut_type = std::unique_ptr<mutex::LockService<bug>>;  // the service is not movable
  using response_type = mutex::Reply;

  machine_type initial() const { return machine_type::make(); }
  st::Gen<mutex::Request> events(const machine_type& /*m*/) const {
    using mutex::Op;
    return st::construct<mutex::Request>(st::element_of<Op>({Op::acquire, Op::release}),
                                         st::integer<std::uint8_t>(0, mutex::kMaxClients - 1),
                                         st::integer<std::uint64_t>(1, 4));
  }
  sut_type new_sut() const { return std::make_unique<mutex::LockService<bug>>(); }
  mutex::Reply apply(sut_type& service, const mutex::Request& r) const {
    return r.op == mutex::Op::acquire ? service->acquire(r.client, r.seq)
                                      : service->release(r.client, r.seq);
  }
  mutex::Reply expected(const machine_type& /*before*/, const mutex::Request& /*r*/,
                        const typename machine_type::Fired& f) const {
    if (fsm::err(f.outcome)) return mutex::Reply::refused;
    if (f.actions.has(mutex::ServerAction::grant)) return mutex::Reply::granted;
    if (f.actions.has(mutex::ServerAction::deny)) return mutex::Reply::denied;
    return mutex::Reply::ignored;
  }
};

}  // namespace

TEST(OrderAsModel, TheCorrectHolderPerformsExactlyTheMachinesActions) {
  for (std::uint64_t seed = 0; seed < 5; ++seed) {
    auto r = st::check(st::machine_spec(OrderBinding<order::HolderBug::none>{}),
                       {.seed = seed, .test_count = 200});
    EXPECT_TRUE(r.ok()) << (r.failure ? st::report(*r.failure) : r.error + r.unhealthy);
  }
}

// Both two-event lists are minimal: a submit, then either event that must
// cancel the timer. (Shrinking an event toward `submit` cannot turn `cancel`
// into `ack`: `cancel`'s shrinks are `submit` and `timeout`, which pass.)
TEST(OrderAsModel, AHolderThatForgetsToCancelTheTimerShrinksToSubmitThenAckOrCancel) {
  int hits = 0;
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    auto got = order_shrunk<order::HolderBug::forget_cancel_timer>(seed);
    if (got == std::vector<std::string>{"submit", "ack"} ||
        got == std::vector<std::string>{"submit", "cancel"}) {
      ++hits;
    } else {
      ADD_FAILURE() << "seed " << seed << ": " << fmt::format("{}", fmt::join(got, " "));
    }
  }
  EXPECT_GE(hits, 95);
}

TEST(OrderAsModel, AHolderThatSendsTwiceShrinksToOneSubmit) {
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    EXPECT_EQ(order_shrunk<order::HolderBug::double_send>(seed), std::vector<std::string>{"submit"})
        << seed;
  }
}

TEST(OrderAsModel, TheReportNamesTheMissingAction) {
  auto r = st::check(st::machine_spec(OrderBinding<order::HolderBug::forget_cancel_timer>{}),
                     {.seed = 1});
  ASSERT_TRUE(r.failure);
  ASSERT_EQ(r.failure->shrunk.size(), 2U);
  EXPECT_EQ(r.failure->violation.detail,
            fmt::format("event {} in pending(retries=0): the holder answered ok sends=0 starts=0 "
                        "cancels=0, the machine says ok sends=0 starts=0 cancels=1",
                        merilo::core::describe(r.failure->shrunk[1])));
}

TEST(LockServiceAsModel, TheServiceAnswersAsTheServerMachineSays) {
  for (std::uint64_t seed = 0; seed < 5; ++seed) {
    auto r = st::check(st::machine_spec(LockBinding<mutex::Bug::none>{}),
                       {.seed = seed, .test_count = 200, .max_commands = 30});
    EXPECT_TRUE(r.ok()) << (r.failure ? st::report(*r.failure) : r.error + r.unhealthy);
  }
}

// Minimal: c0 and c1 (in either order) acquire with number 1. The two
// numbers must stay equal to fail; the shrinker moves them together.
TEST(LockServiceAsModel, ADuplicateGrantShrinksToTwoClientsAskingWithTheSameNumber) {
  const auto minimal = [](const std::vector<st::Fire<mutex::Request>>& l) {
    if (l.size() != 2) return false;
    const mutex::Request& a = l[0].event;
    const mutex::Request& b = l[1].event;
    return a.op == mutex::Op::acquire && b.op == mutex::Op::acquire && a.seq == 1 && b.seq == 1 &&
           a.client + b.client == 1;
  };
  int hits = 0;
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    auto r = st::check(st::machine_spec(LockBinding<mutex::Bug::duplicate_grant>{}),
                       {.seed = seed, .max_commands = 30});
    ASSERT_TRUE(r.failure) << seed;
    if (minimal(r.failure->shrunk)) {
      ++hits;
    } else {
      ADD_FAILURE() << st::report(*r.failure);
    }
  }
  EXPECT_GE(hits, 95);
}
