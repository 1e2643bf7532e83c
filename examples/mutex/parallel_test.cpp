// parallel_test.cpp — the lock service raced from several threads against
// the lock-server machine (parallel::machine_spec): the real holder, which
// keeps its mutex across read-fire-write, is linearizable; a racy holder
// that releases the mutex between reading the machine and writing the fired
// machine back grants one lock to two clients.
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include <merilo/parallel/gtest.hpp>
#include <merilo/parallel/machine.hpp>
#include <merilo/parallel/parallel.hpp>
#include <mutex/holder.hpp>
#include <mutex/server.hpp>

namespace mutex {

/// Text for a request in reports, e.g. "acquire(c1, 2)".
inline std::string merilo_describe(const Request& r) {
  return std::string(name(r.op)) + "(c" + std::to_string(r.client) + ", " + std::to_string(r.seq) +
         ")";
}

/// A lock service with the classic holder bug: it copies the machine under
/// its mutex, fires the request outside it, and writes the result back
/// under the mutex again, so two requests that read the same machine both
/// act on it and one write is lost. It pauses between read and write
/// (`kWindow`) so a test meets the bug quickly.
class RacyLockService {
 public:
  static constexpr std::chrono::microseconds kWindow{500};

  Reply acquire(std::uint8_t client, std::uint64_t seq) {
    return handle(Request{Op::acquire, client, seq});
  }
  Reply release(std::uint8_t client, std::uint64_t seq) {
    return handle(Request{Op::release, client, seq});
  }

 private:
  Reply handle(Request r) {
    Server<> seen;
    {
      std::lock_guard lock(mu_);
      seen = server_;
    }
    auto [next, actions, outcome] = seen.fire(r);
    std::this_thread::sleep_for(kWindow);
    if (fsm::err(outcome)) return Reply::refused;
    {
      std::lock_guard lock(mu_);
      server_ = next;
    }
    if (actions.has(ServerAction::grant)) return Reply::granted;
    if (actions.has(ServerAction::deny)) return Reply::denied;
    return Reply::ignored;
  }

  std::mutex mu_;
  Server<> server_ = Server<>::make();
};

}  // namespace mutex

namespace {

namespace parallel = merilo::parallel;
namespace st = merilo::statem;

/// The binding: requests are the events, the correct server is the model,
/// `Service` (the real holder or the racy one) is the system.
template <class Service>
struct LockBinding {
  using machine_type = mutex::Server<>;
  using event_type = mutex::Request;
  using sut_type = std::unique_ptr<Service>;  // shared by the racing threads
  using response_type = mutex::Reply;

  machine_type initial() const { return machine_type::make(); }
  st::Gen<mutex::Request> events(const machine_type& /*m*/) const {
    using mutex::Op;
    return st::construct<mutex::Request>(st::element_of<Op>({Op::acquire, Op::release}),
                                         st::integer<std::uint8_t>(0, 2),
                                         st::integer<std::uint64_t>(1, 3));
  }
  sut_type new_sut() const { return std::make_unique<Service>(); }
  mutex::Reply apply(sut_type& service, const mutex::Request& r) const {
    return r.op == mutex::Op::acquire ? service->acquire(r.client, r.seq)
                                      : service->release(r.client, r.seq);
  }
  mutex::Reply expected(const machine_type& /*before*/, const mutex::Request& /*r*/,
                        const machine_type::Fired& f) const {
    if (merilo::fsm::err(f.outcome)) return mutex::Reply::refused;
    if (f.actions.has(mutex::ServerAction::grant)) return mutex::Reply::granted;
    if (f.actions.has(mutex::ServerAction::deny)) return mutex::Reply::denied;
    return mutex::Reply::ignored;
  }
};

TEST(LockServiceParallel, TheRealHolderIsLinearizableAgainstTheServerMachine) {
  merilo::testing::parallel_check(parallel::machine_spec(LockBinding<mutex::LockService<>>{}),
                                  {.seed = 1});
}

TEST(LockServiceParallel, TheRacyHolderGrantsOneLockTwiceAndShrinksToTwoRequests) {
  const auto r =
      parallel::check(parallel::machine_spec(LockBinding<mutex::RacyLockService>{}), {.seed = 1});
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(r.failure.has_value()) << "the racy holder was not caught";
  const auto& f = *r.failure;
  EXPECT_EQ(f.violation.tag, parallel::kNotLinearizableTag) << parallel::report(f);
  // Observed: the prefix shrinks away and one fresh acquire per branch, by
  // two different clients, is left; both are granted.
  EXPECT_TRUE(f.shrunk.prefix.empty()) << parallel::report(f);
  ASSERT_EQ(f.shrunk.branches.size(), 2U) << parallel::report(f);
  ASSERT_EQ(f.shrunk.branches[0].size(), 1U) << parallel::report(f);
  ASSERT_EQ(f.shrunk.branches[1].size(), 1U) << parallel::report(f);
  const mutex::Request a = f.shrunk.branches[0][0].event;
  const mutex::Request b = f.shrunk.branches[1][0].event;
  EXPECT_EQ(a.op, mutex::Op::acquire);
  EXPECT_EQ(b.op, mutex::Op::acquire);
  EXPECT_NE(a.client, b.client);
  ASSERT_EQ(f.histories.size(), 2U);
  EXPECT_EQ(f.histories[0][0].response, mutex::Reply::granted);
  EXPECT_EQ(f.histories[1][0].response, mutex::Reply::granted);
}

}  // namespace
