// server.hpp — an idempotent lock server: one lock, granted to one client at
// a time, over a network that may deliver a request twice.
//
// Every acquire carries the client's request number (1, 2, ... per client).
// The server remembers the last request number it served from each client,
// so a duplicate is recognised: a duplicate of the request that holds the
// lock is granted again (the first grant may be the one that got lost), and
// any older request is ignored. A request from another client while the lock
// is held is denied; the client may ask again with its next number. A
// release counts only when it names the current holder and its request.
//
//   free ──acquire (new)──► held ──release (holder's)──► free
//                            │ ▲  acquire (the holder's, again): grant again
//                            │ └──────┘
//                            └── acquire (another client, new): deny
//
// `Bug::duplicate_grant` seeds the bug the example is about: the duplicate
// check compares only the request number, not the client, so another
// client's first request (number 1, like the holder's) is taken for a
// duplicate and granted too.
#ifndef MERILO_EXAMPLES_MUTEX_SERVER_HPP
#define MERILO_EXAMPLES_MUTEX_SERVER_HPP

#include <array>
#include <cstdint>
#include <string_view>

#include <merilo/fsm/fsm.hpp>
#include <merilo/fsm/world.hpp>

namespace mutex {

namespace fsm = merilo::fsm;

/// Seeded bugs, switched at compile time.
enum class Bug : std::uint8_t { none, duplicate_grant };

/// Clients a server can tell apart (ids 0 .. kMaxClients-1).
inline constexpr std::uint8_t kMaxClients = 4;

enum class ServerState : std::uint8_t { none, free, held };
/// What a request asks for; `none` is the zero sentinel.
enum class Op : std::uint8_t { none, acquire, release };
/// The server's replies, sent to the client that made the request.
enum class ServerAction : std::uint8_t { grant, deny };

/// A request as the server receives it.
struct Request {
  Op op = Op::none;
  std::uint8_t client = 0;
  /// The client's request number, from 1; 0 is refused as invalid.
  std::uint64_t seq = 0;
};

[[nodiscard]] constexpr std::string_view name(ServerState s) noexcept {
  switch (s) {
    case ServerState::none:
      return "none";
    case ServerState::free:
      return "free";
    case ServerState::held:
      return "held";
  }
  return "?";
}

[[nodiscard]] constexpr std::string_view name(Op o) noexcept {
  switch (o) {
    case Op::none:
      return "none";
    case Op::acquire:
      return "acquire";
    case Op::release:
      return "release";
  }
  return "?";
}

/// The lock server. A value type: `fire` returns the next one.
template <Bug bug = Bug::none>
class Server {
 public:
  using Fired = fsm::Fired<Server, ServerAction>;

  /// The zero machine, which refuses everything.
  constexpr Server() noexcept = default;
  /// A new server: free, no request served yet.
  [[nodiscard]] static constexpr Server make() noexcept {
    Server s;
    s.state_ = ServerState::free;
    return s;
  }
  /// A server in `state` held by `holder` with request `seq`, for tables.
  [[nodiscard]] static constexpr Server in(ServerState state, std::uint8_t holder = 0,
                                           std::uint64_t seq = 0) noexcept {
    Server s;
    s.state_ = state;
    s.holder_ = holder;
    s.holder_seq_ = seq;
    if (holder < kMaxClients) s.last_[holder] = seq;
    return s;
  }

  [[nodiscard]] constexpr ServerState state() const noexcept { return state_; }
  /// The client holding the lock (meaningful while `held`).
  [[nodiscard]] constexpr std::uint8_t holder() const noexcept { return holder_; }

  [[nodiscard]] constexpr Fired fire(Request r) const noexcept {
    using fsm::Outcome;
    if (r.client >= kMaxClients || r.seq == 0) return {*this, {}, Outcome::invalid};
    switch (state_) {
      case ServerState::free:
        switch (r.op) {
          case Op::acquire:
            if (r.seq <= last_[r.client]) return {*this, {}, Outcome::ignored};  // stale
            return {take(r), ServerAction::grant, Outcome::moved};
          case Op::release:
            return {*this, {}, Outcome::ignored};  // stale or duplicate
          case Op::none:
            break;
        }
        break;
      case ServerState::held:
        switch (r.op) {
          case Op::acquire:
            return acquire_held(r);
          case Op::release:
            if (r.client == holder_ && r.seq == holder_seq_) {
              Server next = *this;
              next.state_ = ServerState::free;
              return {next, {}, Outcome::moved};
            }
            return {*this, {}, Outcome::ignored};
          case Op::none:
            break;
        }
        break;
      case ServerState::none:
        break;
    }
    return {*this, {}, Outcome::invalid};
  }

  friend constexpr bool operator==(const Server&, const Server&) noexcept = default;

 private:
  [[nodiscard]] constexpr bool duplicate_of_grant(Request r) const noexcept {
    if constexpr (bug == Bug::duplicate_grant) return r.seq == holder_seq_;
    return r.client == holder_ && r.seq == holder_seq_;
  }

  [[nodiscard]] constexpr Fired acquire_held(Request r) const noexcept {
    using fsm::Outcome;
    if (duplicate_of_grant(r)) return {*this, ServerAction::grant, Outcome::moved};
    if (r.seq <= last_[r.client]) return {*this, {}, Outcome::ignored};  // stale
    Server next = *this;
    next.last_[r.client] = r.seq;  // a duplicate of this request is stale now
    return {next, ServerAction::deny, Outcome::moved};
  }

  [[nodiscard]] constexpr Server take(Request r) const noexcept {
    Server next = *this;
    next.state_ = ServerState::held;
    next.holder_ = r.client;
    next.holder_seq_ = r.seq;
    next.last_[r.client] = r.seq;
    return next;
  }

  std::array<std::uint64_t, kMaxClients> last_{};  // last request served, per client
  std::uint64_t holder_seq_ = 0;
  ServerState state_ = ServerState::none;
  std::uint8_t holder_ = 0;
  std::array<std::uint8_t, 6> pad_{};  // explicit, zeroed: the bytes are the value
};

static_assert(fsm::Machine<Server<>, Request>);
static_assert(fsm::ByteHashable<Server<>>);
static_assert(fsm::ByteHashable<Server<Bug::duplicate_grant>>);

}  // namespace mutex

#endif  // MERILO_EXAMPLES_MUTEX_SERVER_HPP
