// system.hpp — a sender and a receiver keeping a stream in order over a link
// that loses, duplicates (by retransmission) and reorders messages.
//
// The protocol: the sender sends message i with sequence number i and
// retransmits it on a timeout until it hears `ack i`; then it sends i + 1.
// The receiver takes a message whose number is the next it expects,
// appends its payload to what it has delivered and acks it; any other
// message is a stale copy, which it acks again (with the last number it
// took) and drops. The link holds up to kSlots messages (an
// explore::Network, kept sorted) and may deliver or lose any of them next. kMessages messages are
// sent in all.
//
// The seeded bug, `Bug::short_sequence`, puts only the low three bits of
// the sequence number on the wire, as a 3-bit header field would. It is
// harmless as long as no copy outlives eight newer messages — and a
// retransmitted copy can: a copy of message 0 that is still in flight when
// the receiver expects message 8 is taken as message 8, and the stream is
// out of order. The explorer's shortest trace is 17 steps: message 0
// delivered, a timeout (the stale copy), then messages 1 to 7 and acks 0 to
// 6 delivered past the stale copy, then the stale copy. A fuzzer needs
// every one of those choices: the drain always delivers the lowest slot —
// the stale copy, too early — and masking that slot keeps the stale copy
// out for good. See docs/fuzz.md ("Bugs deep beyond the search").
//
// Kinds, in this order: deliver slot i (0..3), the sender's timeout (4),
// lose slot i (5..8).
//
// The invariant: the receiver has delivered payloads 0, 1, 2, ... in order.
// The tuple names both ends by their sequence numbers and says whether the
// link holds a stale copy of a message the receiver already took.
#ifndef MERILO_EXAMPLES_RELAY_SYSTEM_HPP
#define MERILO_EXAMPLES_RELAY_SYSTEM_HPP

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <tuple>

#include <merilo/explore/network.hpp>
#include <merilo/explore/system.hpp>
#include <merilo/fsm/world.hpp>

namespace relay {

namespace ex = merilo::explore;

/// The seeded bugs.
enum class Bug : std::uint8_t {
  none,
  short_sequence,  ///< Only the low three bits of the sequence go on the wire.
};

/// A message's type; `none` marks an empty slot. Data sorts first.
enum class Msg : std::uint8_t { none, data, ack };

/// A message in flight. `seq` is the number on the wire; `payload` is
/// which message a data message carries (what the receiver appends).
struct Message {
  Msg type = Msg::none;
  std::uint8_t seq = 0;
  std::uint8_t payload = 0;
  std::uint8_t pad = 0;
  friend constexpr bool operator==(const Message&, const Message&) noexcept = default;
};

/// The order the link keeps its messages in: by type (data first), then
/// sequence number, then payload.
struct MessageOrder {
  constexpr bool operator()(const Message& a, const Message& b) const noexcept {
    return std::tie(a.type, a.seq, a.payload) < std::tie(b.type, b.seq, b.payload);
  }
};

/// The adapter merilo explores and fuzzes.
template <Bug bug = Bug::none>
class System {
 public:
  static constexpr std::uint8_t kMessages = 10;
  static constexpr std::size_t kSlots = 4;
  static constexpr ex::Kind kDeliver = 0;
  static constexpr ex::Kind kTimeout = kDeliver + kSlots;
  static constexpr ex::Kind kLose = kTimeout + 1;
  static constexpr ex::Kind kKinds = kLose + kSlots;

  struct World {
    std::uint8_t next_send = 0;                       // the message the sender sends until acked
    std::uint8_t expected = 0;                        // the next message the receiver takes
    std::uint8_t in_order = 1;                        // 0 once a payload was delivered out of order
    std::uint8_t last_payload = 0;                    // the payload delivered last
    ex::Network<Message, kSlots, MessageOrder> link;  // in flight, sorted
  };
  static_assert(merilo::fsm::ByteHashable<World>);

  /// The initial world: message 0 is on the link.
  void reset() {
    w_ = World{};
    w_.link.send(Message{Msg::data, wire(0), 0, 0});
  }
  [[nodiscard]] std::size_t kinds() const { return kKinds; }

  [[nodiscard]] bool enabled(ex::Kind k) const {
    if (k < kTimeout) return w_.link.occupied(k - kDeliver);
    if (k == kTimeout) return w_.next_send < kMessages && !w_.link.full();
    return w_.link.occupied(k - kLose);
  }

  ex::Status apply(ex::Kind k) {
    if (k == kTimeout) return send(w_.next_send);
    const std::size_t slot = k < kTimeout ? k - kDeliver : k - kLose;
    const Message m = w_.link.take(slot);
    if (k > kTimeout) return {};  // lost
    return m.type == Msg::data ? receive(m) : acknowledge(m);
  }

  [[nodiscard]] const World& world() const { return w_; }
  void restore(const World& w) { w_ = w; }

  [[nodiscard]] std::array<ex::Invariant<System>, 1> invariants() const {
    return {
        {{"the stream is delivered in order", [](const System& s) { return s.w_.in_order != 0; }}}};
  }

  [[nodiscard]] std::string tuple() const {
    std::string t = w_.next_send < kMessages ? "sender:sends#" + std::to_string(w_.next_send)
                                             : std::string("sender:done");
    t += " receiver:expects#" + std::to_string(w_.expected);
    const bool stale = std::any_of(
        w_.link.slots().begin(), w_.link.slots().end(),
        [&](const Message& m) { return m.type == Msg::data && m.payload < w_.expected; });
    t += stale ? " link:stale" : " link:fresh";
    return t;
  }

  /// Stopped by design: every message sent and acked, nothing in flight.
  [[nodiscard]] bool settled() const { return w_.next_send == kMessages && w_.link.empty(); }

  [[nodiscard]] std::string describe(ex::Kind k) const {
    if (k == kTimeout) return "timeout: resend message " + std::to_string(w_.next_send);
    const std::size_t slot = k < kTimeout ? k - kDeliver : k - kLose;
    const Message& m = w_.link[slot];
    const std::string what = (m.type == Msg::data ? "data#" : "ack#") + std::to_string(m.seq) +
                             (m.type == Msg::data ? " (" + std::to_string(m.payload) + ")" : "");
    return (k < kTimeout ? "deliver " : "lose ") + what;
  }

 private:
  // The number message `i` carries on the wire.
  static constexpr std::uint8_t wire(std::uint8_t i) {
    return bug == Bug::short_sequence ? static_cast<std::uint8_t>(i & 7U) : i;
  }

  ex::Status send(std::uint8_t i) { return push(Message{Msg::data, wire(i), i, 0}); }

  ex::Status receive(const Message& m) {
    if (m.seq == wire(w_.expected)) {
      if (m.payload != w_.expected) w_.in_order = 0;
      w_.last_payload = m.payload;
      ++w_.expected;
      return push(Message{Msg::ack, m.seq, 0, 0});
    }
    if (w_.expected == 0) return {};  // nothing taken yet: nothing to ack again
    return push(Message{Msg::ack, wire(static_cast<std::uint8_t>(w_.expected - 1)), 0, 0});
  }

  ex::Status acknowledge(const Message& m) {
    if (w_.next_send < kMessages && m.seq == wire(w_.next_send)) {
      ++w_.next_send;
      if (w_.next_send < kMessages) return send(w_.next_send);
    }
    return {};
  }

  ex::Status push(Message m) {
    // A full link drops what it cannot hold, as a real link would.
    (void)w_.link.send(m);
    return {};
  }

  World w_{};
};

}  // namespace relay

#endif  // MERILO_EXAMPLES_RELAY_SYSTEM_HPP
