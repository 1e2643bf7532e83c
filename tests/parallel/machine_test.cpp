// machine_test.cpp — the fsm bridge: a holder raced against its machine;
// responses compared with what `fire` implies, and the binding's optional
// admit, finish and teardown used.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include <merilo/parallel/machine.hpp>
#include <merilo/parallel/parallel.hpp>
#include <mutex/holder.hpp>
#include <mutex/parallel.hpp>  // describing a Request
#include <mutex/server.hpp>

namespace {

namespace parallel = merilo::parallel;
namespace st = merilo::statem;

/// The real lock service, except that it can be told to deny every acquire.
struct Service {
  mutex::LockService<> real;
  bool deny_all = false;
};

struct Counters {
  std::atomic<int> finished{0};
  std::atomic<int> torn_down{0};
};

struct Binding {
  using machine_type = mutex::Server<>;
  using event_type = mutex::Request;
  using sut_type = std::unique_ptr<Service>;
  using response_type = mutex::Reply;

  bool deny_all = false;
  bool acquires_only = false;
  std::shared_ptr<Counters> counters = std::make_shared<Counters>();

  machine_type initial() const { return machine_type::make(); }
  st::Gen<mutex::Request> events(const machine_type&) const {
    using mutex::Op;
    return st::construct<mutex::Request>(st::element_of<Op>({Op::acquire, Op::release}),
                                         st::integer<std::uint8_t>(0, 2),
                                         st::integer<std::uint64_t>(1, 3));
  }
  bool admit(const machine_type&, const mutex::Request& r) const {
    return !acquires_only || r.op == mutex::Op::acquire;
  }
  sut_type new_sut() const {
    auto s = std::make_unique<Service>();
    s->deny_all = deny_all;
    return s;
  }
  mutex::Reply apply(sut_type& s, const mutex::Request& r) const {
    if (s->deny_all && r.op == mutex::Op::acquire) return mutex::Reply::denied;
    return r.op == mutex::Op::acquire ? s->real.acquire(r.client, r.seq)
                                      : s->real.release(r.client, r.seq);
  }
  mutex::Reply expected(const machine_type&, const mutex::Request&,
                        const machine_type::Fired& f) const {
    if (merilo::fsm::err(f.outcome)) return mutex::Reply::refused;
    if (f.actions.has(mutex::ServerAction::grant)) return mutex::Reply::granted;
    if (f.actions.has(mutex::ServerAction::deny)) return mutex::Reply::denied;
    return mutex::Reply::ignored;
  }
  parallel::MaybeViolation finish(sut_type&) const {
    counters->finished.fetch_add(1);
    return std::nullopt;
  }
  void teardown(sut_type&) const { counters->torn_down.fetch_add(1); }
};

TEST(ParallelMachine, AHolderThatAnswersAsTheMachinePassesAndFinishAndTeardownAreCalled) {
  Binding b;
  const auto counters = b.counters;
  const auto r =
      parallel::check(parallel::machine_spec(b),
                      {.seed = 4, .test_count = 20, .scheduler = parallel::Scheduler::os});
  EXPECT_TRUE(r.ok()) << (r.failure ? parallel::report(*r.failure) : r.error);
  EXPECT_EQ(counters->finished.load(), 60);  // 20 runs, repeat 3
  EXPECT_EQ(counters->torn_down.load(), 60);
}

TEST(ParallelMachine, AWrongAnswerInThePrefixIsAMachineResponseViolation) {
  Binding b;
  b.deny_all = true;
  b.acquires_only = true;
  const auto spec = parallel::machine_spec(b);
  const parallel::CheckOptions config{.seed = 4};
  std::size_t run = 0;  // the first run whose case starts with a prefix
  while (parallel::generate_case(spec, config, run).drawn.prefix.empty()) ++run;
  const auto r = parallel::check_run(spec, config, run);
  ASSERT_TRUE(r.failure.has_value());
  const auto& f = *r.failure;
  EXPECT_EQ(f.violation.tag, parallel::kResponseTag) << parallel::report(f);
  EXPECT_EQ(f.evidence, parallel::Evidence::in_prefix);
  ASSERT_EQ(f.shrunk.prefix.size(), 1U) << parallel::report(f);
  EXPECT_EQ(f.shrunk.prefix[0].event.op, mutex::Op::acquire);
  EXPECT_NE(f.violation.detail.find("the holder answered denied, the machine says granted"),
            std::string::npos)
      << f.violation.detail;
}

TEST(ParallelMachine, TheBindingsAdmitIsThePrecondition) {
  Binding b;
  b.acquires_only = true;
  const auto spec = parallel::machine_spec(b);
  for (std::size_t run = 0; run < 50; ++run) {
    const auto g = parallel::generate_case(spec, {.seed = 9}, run);
    for (const auto& f : g.drawn.prefix) EXPECT_EQ(f.event.op, mutex::Op::acquire);
    for (const auto& branch : g.drawn.branches) {
      for (const auto& f : branch) EXPECT_EQ(f.event.op, mutex::Op::acquire);
    }
  }
}

}  // namespace
