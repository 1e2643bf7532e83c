// system.hpp — two lock clients and the lock server, over a network that may
// duplicate a message.
//
// The protocol: a client that wants the lock sends `acquire` with its next
// request number; the server grants it if the lock is free, denies it if
// someone else holds it, grants it again if it is a duplicate of the
// holder's request, and ignores anything older. A holder releases with the
// number it was granted under. Each client may ask twice. The network keeps
// up to kSlots messages in an explore::Network (sorted, so the order in which
// they were sent does not split one world into many), delivers any of them next,
// and may duplicate one message once per run — which is why the server must
// be idempotent.
//
// Kinds, in this order (the fuzzer's drain takes the lowest enabled one, so
// it delivers before anyone acts and lets one client finish before the
// other starts): deliver slot i (0..5), client c releases (6..7), client c
// wants the lock (8..9), duplicate slot i (10..15).
//
// The invariant: at most one client holds the lock. The fixed server's
// state space is 1'996 worlds in 12 control-state tuples, the farthest 19
// steps away; with `Bug::duplicate_grant` the explorer breaks mutual
// exclusion in 6 steps.
#ifndef MERILO_EXAMPLES_MUTEX_SYSTEM_HPP
#define MERILO_EXAMPLES_MUTEX_SYSTEM_HPP

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <tuple>

#include <merilo/explore/network.hpp>
#include <merilo/explore/system.hpp>
#include <merilo/fsm/world.hpp>

#include <mutex/client.hpp>
#include <mutex/server.hpp>

namespace mutex {

namespace ex = merilo::explore;

/// A message's type; `none` marks an empty slot. Replies sort first.
enum class Msg : std::uint8_t { none, grant, deny, acquire, release };

[[nodiscard]] constexpr std::string_view name(Msg m) noexcept {
  switch (m) {
    case Msg::none:
      return "none";
    case Msg::grant:
      return "grant";
    case Msg::deny:
      return "deny";
    case Msg::acquire:
      return "acquire";
    case Msg::release:
      return "release";
  }
  return "?";
}

/// A message in flight between client `client` and the server.
struct Message {
  std::uint64_t seq = 0;
  Msg type = Msg::none;
  std::uint8_t client = 0;
  std::array<std::uint8_t, 6> pad{};

  friend constexpr bool operator==(const Message&, const Message&) noexcept = default;
};

/// The order the network keeps its messages in: by type, client, number.
struct MessageOrder {
  constexpr bool operator()(const Message& a, const Message& b) const noexcept {
    return std::tie(a.type, a.client, a.seq) < std::tie(b.type, b.client, b.seq);
  }
};

/// The adapter merilo explores and fuzzes.
template <Bug bug = Bug::none>
class System {
 public:
  static constexpr std::size_t kClients = 2;
  static constexpr std::uint64_t kAttempts = 2;
  static constexpr std::size_t kSlots = 6;
  static constexpr ex::Kind kDeliver = 0;
  static constexpr ex::Kind kRelease = kDeliver + kSlots;
  static constexpr ex::Kind kWant = kRelease + kClients;
  static constexpr ex::Kind kDuplicate = kWant + kClients;
  static constexpr ex::Kind kKinds = kDuplicate + kSlots;

  struct World {
    Server<bug> server;
    std::array<Client, kClients> clients;
    ex::Network<Message, kSlots, MessageOrder> net;  // in flight, sorted
    std::uint8_t dups_left = 1;                      // duplications the network may still do
    std::array<std::uint8_t, 7> pad{};
  };
  static_assert(merilo::fsm::ByteHashable<World>);

  void reset() {
    w_ = World{Server<bug>::make(), {Client::make(kAttempts), Client::make(kAttempts)}, {}, 1, {}};
  }
  [[nodiscard]] std::size_t kinds() const { return kKinds; }

  [[nodiscard]] bool enabled(ex::Kind k) const {
    if (k < kRelease) return w_.net.occupied(k - kDeliver);
    if (k < kWant) return w_.clients[k - kRelease].state() == ClientState::holding;
    if (k < kDuplicate) return w_.clients[k - kWant].can_want();
    return w_.dups_left > 0 && w_.net.occupied(k - kDuplicate) && !w_.net.full();
  }

  ex::Status apply(ex::Kind k) {
    if (k < kRelease) return deliver(k - kDeliver);
    if (k < kWant) return fire_client(k - kRelease, ClientEvent{ClientOp::release, 0});
    if (k < kDuplicate) return fire_client(k - kWant, ClientEvent{ClientOp::want, 0});
    --w_.dups_left;
    return push(w_.net[k - kDuplicate]);
  }

  [[nodiscard]] const World& world() const { return w_; }
  void restore(const World& w) { w_ = w; }

  /// The invariants, each a name and a predicate, listed once.
  [[nodiscard]] std::array<ex::Invariant<System>, 1> invariants() const {
    return {{{"at most one client holds the lock",
              [](const System& s) { return s.at_most_one_holder(); }}}};
  }

  [[nodiscard]] std::string tuple() const {
    std::string t = "server:" + std::string(name(w_.server.state()));
    for (std::size_t c = 0; c < kClients; ++c) {
      t += " c" + std::to_string(c) + ":" + std::string(name(w_.clients[c].state()));
    }
    return t;
  }

  /// Stopped by design: every client idle with no requests left, nothing in
  /// flight.
  [[nodiscard]] bool settled() const {
    if (!w_.net.empty()) return false;
    return std::all_of(w_.clients.begin(), w_.clients.end(), [](const Client& c) {
      return c.state() == ClientState::idle && !c.can_want();
    });
  }

  [[nodiscard]] std::string describe(ex::Kind k) const {
    if (k < kRelease) return "deliver " + show(w_.net[k - kDeliver]);
    if (k < kWant) return "c" + std::to_string(k - kRelease) + " releases";
    if (k < kDuplicate) return "c" + std::to_string(k - kWant) + " wants the lock";
    return "duplicate " + show(w_.net[k - kDuplicate]);
  }

 private:
  [[nodiscard]] ex::InvariantCheck at_most_one_holder() const {
    std::size_t holding = 0;
    for (const Client& c : w_.clients) holding += c.state() == ClientState::holding ? 1U : 0U;
    if (holding <= 1) return true;
    return ex::InvariantCheck::fails(std::to_string(holding) + " clients hold it");
  }

  static std::string show(const Message& m) {
    const std::string who = "c" + std::to_string(m.client) + "#" + std::to_string(m.seq);
    if (m.type == Msg::grant || m.type == Msg::deny) {
      return std::string(name(m.type)) + " server->" + who;
    }
    return std::string(name(m.type)) + " " + who + "->server";
  }

  ex::Status deliver(std::size_t slot) {
    const Message m = w_.net.take(slot);
    switch (m.type) {
      case Msg::acquire:
        return fire_server(Request{Op::acquire, m.client, m.seq});
      case Msg::release:
        return fire_server(Request{Op::release, m.client, m.seq});
      case Msg::grant:
        return fire_client(m.client, ClientEvent{ClientOp::grant, m.seq});
      case Msg::deny:
        return fire_client(m.client, ClientEvent{ClientOp::deny, m.seq});
      case Msg::none:
        break;
    }
    return ex::Status::error("delivered an empty slot");
  }

  // Fires `r` at the server as its holder does, sending its reply.
  ex::Status fire_server(Request r) {
    auto [next, actions, outcome] = w_.server.fire(r);
    if (auto refusal = merilo::fsm::err(outcome)) {
      return ex::Status::error(std::string(name(r.op)) + " at the server was " +
                               std::string(refusal.what()));
    }
    w_.server = next;
    ex::Status sent;
    actions.for_each([&](ServerAction a) {
      switch (a) {
        case ServerAction::grant:
          sent = push(Message{r.seq, Msg::grant, r.client, {}});
          return;
        case ServerAction::deny:
          sent = push(Message{r.seq, Msg::deny, r.client, {}});
          return;
      }
    });
    return sent;
  }

  // Fires `e` at client `c` as its holder does, sending its request.
  ex::Status fire_client(std::size_t c, ClientEvent e) {
    Client& client = w_.clients[c];
    auto [next, actions, outcome] = client.fire(e);
    if (auto refusal = merilo::fsm::err(outcome)) {
      return ex::Status::error(std::string(name(e.op)) + " at c" + std::to_string(c) + " was " +
                               std::string(refusal.what()));
    }
    client = next;
    const auto id = static_cast<std::uint8_t>(c);
    ex::Status sent;
    actions.for_each([&](ClientAction a) {
      switch (a) {
        case ClientAction::send_acquire:
          sent = push(Message{client.seq(), Msg::acquire, id, {}});
          return;
        case ClientAction::send_release:
          sent = push(Message{client.seq(), Msg::release, id, {}});
          return;
      }
    });
    return sent;
  }

  ex::Status push(Message m) {
    if (!w_.net.send(m)) {
      return ex::Status::error("the network is full (" + std::to_string(kSlots) +
                               " slots); raise kSlots");
    }
    return {};
  }

  World w_{};
};

}  // namespace mutex

#endif  // MERILO_EXAMPLES_MUTEX_SYSTEM_HPP
