// parallel.hpp — the lock service raced from several threads against the
// lock-server machine (merilo::parallel::machine_spec).
//
// `LockBinding<Service>` binds a service (the real holder, which keeps its
// mutex across read-fire-write, or `RacyLockService`) to the correct server
// machine as its model. `ControlledLockService` is the real holder with a
// merilo::sync::mutex (its template parameter), so the parallel tester
// schedules the callers. `RacyLockService` seeds the classic holder bug: it
// copies the machine under its mutex, fires the request outside it and
// writes the result back under the mutex again, so two requests that read
// the same machine both act on it and one write is lost (two clients are
// granted one lock). Its mutex is a merilo::sync::mutex too: the window
// between the two lock sections is found by controlled scheduling, not
// widened by a pause.
//
// Example:
//
//   auto r = merilo::parallel::check(
//       merilo::parallel::machine_spec(mutex::LockBinding<mutex::RacyLockService>{}), {.seed = 1});
//   // r.failure->shrunk: one fresh acquire per branch, by two clients; both granted.
#ifndef MERILO_EXAMPLES_MUTEX_PARALLEL_HPP
#define MERILO_EXAMPLES_MUTEX_PARALLEL_HPP

#include <cstdint>
#include <memory>
#include <mutex>  // std::lock_guard
#include <string>

#include <merilo/parallel/machine.hpp>
#include <merilo/sync/sync.hpp>
#include <merilo/statem/gen.hpp>
#include <mutex/holder.hpp>
#include <mutex/server.hpp>

namespace mutex {

/// Text for a request in reports, e.g. "acquire(c1, 2)".
inline std::string merilo_describe(const Request& r) {
  return std::string(name(r.op)) + "(c" + std::to_string(r.client) + ", " + std::to_string(r.seq) +
         ")";
}

/// The real holder, its mutex scheduled by the parallel tester.
using ControlledLockService = LockService<Bug::none, merilo::sync::mutex>;

/// A lock service with the classic holder bug (see the top of this file).
class RacyLockService {
 public:
  /// As LockService::acquire.
  Reply acquire(std::uint8_t client, std::uint64_t seq) {
    return handle(Request{Op::acquire, client, seq});
  }
  /// As LockService::release.
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
    auto [next, actions, outcome] = seen.fire(r);  // another request may read `server_` now
    if (fsm::err(outcome)) return Reply::refused;
    {
      std::lock_guard lock(mu_);
      server_ = next;
    }
    if (actions.has(ServerAction::grant)) return Reply::granted;
    if (actions.has(ServerAction::deny)) return Reply::denied;
    return Reply::ignored;
  }

  merilo::sync::mutex mu_;
  Server<> server_ = Server<>::make();
};

/// The binding: requests are the events, the correct server is the model,
/// `Service` (the real holder or the racy one) is the system.
template <class Service>
struct LockBinding {
  using machine_type = mutex::Server<>;
  using event_type = mutex::Request;
  using sut_type = std::unique_ptr<Service>;  // shared by the racing threads
  using response_type = mutex::Reply;

  machine_type initial() const { return machine_type::make(); }
  merilo::statem::Gen<mutex::Request> events(const machine_type& /*m*/) const {
    using mutex::Op;
    return merilo::statem::construct<mutex::Request>(
        merilo::statem::element_of<Op>({Op::acquire, Op::release}),
        merilo::statem::integer<std::uint8_t>(0, 2), merilo::statem::integer<std::uint64_t>(1, 3));
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

}  // namespace mutex

#endif  // MERILO_EXAMPLES_MUTEX_PARALLEL_HPP
