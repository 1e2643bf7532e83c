// client.hpp — one client of the lock server: asks for the lock, holds it
// once granted, releases it.
//
// Each request gets the next number from the client's request counter, an
// fsm::Counter whose limit is how many times the client may ask; the client
// refuses to ask again at the limit. Replies carry the number of the request
// they answer, so a late reply to an old request is ignored.
//
//   idle ──want──► waiting ──grant(n)──► holding ──release──► idle
//                    └────deny(n)────► idle
#ifndef MERILO_EXAMPLES_MUTEX_CLIENT_HPP
#define MERILO_EXAMPLES_MUTEX_CLIENT_HPP

#include <array>
#include <cstdint>
#include <string_view>

#include <merilo/fsm/fsm.hpp>
#include <merilo/fsm/world.hpp>

namespace mutex {

namespace fsm = merilo::fsm;

enum class ClientState : std::uint8_t { none, idle, waiting, holding };
/// What happens to a client: its user wants or releases the lock, or a
/// reply arrives. `none` is the zero sentinel.
enum class ClientOp : std::uint8_t { none, want, grant, deny, release };
/// What the client's holder sends to the server.
enum class ClientAction : std::uint8_t { send_acquire, send_release };

/// An event for a client; `seq` is the request a reply answers.
struct ClientEvent {
  ClientOp op = ClientOp::none;
  std::uint64_t seq = 0;
};

[[nodiscard]] constexpr std::string_view name(ClientState s) noexcept {
  switch (s) {
    case ClientState::none:
      return "none";
    case ClientState::idle:
      return "idle";
    case ClientState::waiting:
      return "waiting";
    case ClientState::holding:
      return "holding";
  }
  return "?";
}

[[nodiscard]] constexpr std::string_view name(ClientOp o) noexcept {
  switch (o) {
    case ClientOp::none:
      return "none";
    case ClientOp::want:
      return "want";
    case ClientOp::grant:
      return "grant";
    case ClientOp::deny:
      return "deny";
    case ClientOp::release:
      return "release";
  }
  return "?";
}

/// A lock client. A value type: `fire` returns the next one.
class Client {
 public:
  using Fired = fsm::Fired<Client, ClientAction>;

  /// The zero machine, which refuses everything.
  constexpr Client() noexcept = default;
  /// A new idle client that may ask `attempts` times.
  [[nodiscard]] static constexpr Client make(std::uint64_t attempts) noexcept {
    Client c;
    c.state_ = ClientState::idle;
    c.seq_ = fsm::Counter{attempts};
    return c;
  }
  /// A client in `s` whose current request is `seq`, for tables.
  [[nodiscard]] static constexpr Client in(ClientState s, std::uint64_t seq,
                                           std::uint64_t attempts) noexcept {
    Client c = make(attempts);
    c.state_ = s;
    for (std::uint64_t i = 0; i < seq; ++i) c.seq_ = c.seq_.inc().next;
    return c;
  }

  [[nodiscard]] constexpr ClientState state() const noexcept { return state_; }
  /// The number of the client's latest request (0 before the first).
  [[nodiscard]] constexpr std::uint64_t seq() const noexcept { return seq_.value(); }
  /// Whether `want` would be taken: idle with requests left.
  [[nodiscard]] constexpr bool can_want() const noexcept {
    return state_ == ClientState::idle && !seq_.at_limit();
  }

  [[nodiscard]] constexpr Fired fire(ClientEvent e) const noexcept {
    using fsm::Outcome;
    switch (state_) {
      case ClientState::idle:
        switch (e.op) {
          case ClientOp::want: {
            auto [seq, ok] = seq_.inc();
            if (!ok) return {*this, {}, Outcome::rejected};  // no requests left
            Client next = *this;
            next.seq_ = seq;
            next.state_ = ClientState::waiting;
            return {next, ClientAction::send_acquire, Outcome::moved};
          }
          case ClientOp::grant:
          case ClientOp::deny:
            return {*this, {}, Outcome::ignored};  // late reply
          case ClientOp::release:
            return {*this, {}, Outcome::rejected};
          case ClientOp::none:
            break;
        }
        break;
      case ClientState::waiting:
        switch (e.op) {
          case ClientOp::grant:
            return answer(e, ClientState::holding);
          case ClientOp::deny:
            return answer(e, ClientState::idle);
          case ClientOp::want:
          case ClientOp::release:
            return {*this, {}, Outcome::rejected};
          case ClientOp::none:
            break;
        }
        break;
      case ClientState::holding:
        switch (e.op) {
          case ClientOp::release: {
            Client next = *this;
            next.state_ = ClientState::idle;
            return {next, ClientAction::send_release, Outcome::moved};
          }
          case ClientOp::grant:
          case ClientOp::deny:
            return {*this, {}, Outcome::ignored};  // duplicate reply
          case ClientOp::want:
            return {*this, {}, Outcome::rejected};
          case ClientOp::none:
            break;
        }
        break;
      case ClientState::none:
        break;
    }
    return {*this, {}, Outcome::invalid};
  }

  friend constexpr bool operator==(const Client&, const Client&) noexcept = default;

 private:
  // A reply to the current request moves to `to`; one to an older request
  // is late and ignored.
  [[nodiscard]] constexpr Fired answer(ClientEvent e, ClientState to) const noexcept {
    if (e.seq != seq_.value()) return {*this, {}, fsm::Outcome::ignored};
    Client next = *this;
    next.state_ = to;
    return {next, {}, fsm::Outcome::moved};
  }

  fsm::Counter seq_{};
  ClientState state_ = ClientState::none;
  std::array<std::uint8_t, 7> pad_{};  // explicit, zeroed: the bytes are the value
};

static_assert(fsm::Machine<Client, ClientEvent>);
static_assert(fsm::ByteHashable<Client>);

}  // namespace mutex

#endif  // MERILO_EXAMPLES_MUTEX_CLIENT_HPP
