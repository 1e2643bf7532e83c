// holder.hpp — the production wrapper that owns a lock server.
//
// `LockService` is what a program would run: it keeps the one `Server`
// machine, replaces it with each `fire` result, and turns the machine's
// actions into replies. It is thread-safe (one mutex around the machine), so
// concurrent callers can use it directly and a concurrent test can race it.
// The mutex type is a template parameter (std::mutex unless told): a
// concurrent test instantiates it with merilo::sync::mutex, so the parallel
// tester schedules the callers, while production code, the explorer and
// statem keep std::mutex and this header depends on nothing of merilo's
// parallel tester.
//
// Example:
//
//   mutex::LockService<> service;
//   if (service.acquire(0, 1) == mutex::Reply::granted) {
//     ... critical section ...
//     service.release(0, 1);
//   }
#ifndef MERILO_EXAMPLES_MUTEX_HOLDER_HPP
#define MERILO_EXAMPLES_MUTEX_HOLDER_HPP

#include <cstdint>
#include <mutex>
#include <string_view>

#include <mutex/server.hpp>

namespace mutex {

/// What a caller of the service gets back.
enum class Reply : std::uint8_t {
  none,     ///< Zero sentinel; never returned.
  granted,  ///< The caller holds the lock (again, for a duplicate request).
  denied,   ///< Someone else holds it; ask again with the next number.
  ignored,  ///< A stale or duplicate request or release: nothing happened.
  refused,  ///< The server refused it (an invalid client or number 0).
};

[[nodiscard]] constexpr std::string_view name(Reply r) noexcept {
  switch (r) {
    case Reply::none:
      return "none";
    case Reply::granted:
      return "granted";
    case Reply::denied:
      return "denied";
    case Reply::ignored:
      return "ignored";
    case Reply::refused:
      return "refused";
  }
  return "?";
}

/// Owns one lock server and serialises access to it with a `Mutex` (a
/// standard Lockable: std::mutex, or merilo::sync::mutex under test).
template <Bug bug = Bug::none, class Mutex = std::mutex>
class LockService {
 public:
  /// Client `client` asks for the lock with its request number `seq`.
  Reply acquire(std::uint8_t client, std::uint64_t seq) {
    return handle(Request{Op::acquire, client, seq});
  }
  /// Client `client` releases the lock it got with request `seq`.
  Reply release(std::uint8_t client, std::uint64_t seq) {
    return handle(Request{Op::release, client, seq});
  }
  /// A copy of the machine, for inspection.
  [[nodiscard]] Server<bug> server() const {
    std::lock_guard lock(mu_);
    return server_;
  }

 private:
  Reply handle(Request r) {
    std::lock_guard lock(mu_);
    auto [next, actions, outcome] = server_.fire(r);
    if (fsm::err(outcome)) return Reply::refused;
    server_ = next;
    Reply reply = Reply::ignored;
    actions.for_each([&reply](ServerAction a) {
      switch (a) {
        case ServerAction::grant:
          reply = Reply::granted;
          return;
        case ServerAction::deny:
          reply = Reply::denied;
          return;
      }
    });
    return reply;
  }

  mutable Mutex mu_;
  Server<bug> server_ = Server<bug>::make();
};

}  // namespace mutex

#endif  // MERILO_EXAMPLES_MUTEX_HOLDER_HPP
