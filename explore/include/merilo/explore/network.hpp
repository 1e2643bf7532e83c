// merilo/explore/network.hpp — the messages in flight between a system's
// parts, as a bounded multiset a world can hold by value.
//
// A distributed protocol's world holds the messages sent and not yet
// delivered. Which order they were sent in does not matter to the
// protocol (the network may deliver any of them next), so two worlds that
// differ only by that order are one world: keeping the messages sorted
// makes them equal byte for byte, which is what the explorer compares.
// `Network<M, N>` is that: at most `N` messages, kept sorted by `Order`,
// the empty slots (`M{}`) last, in a plain array, so a world that holds one
// stays trivially copyable and hashable by its bytes.
//
// A system usually gives the network a kind per slot and per fault:
// deliver slot i, drop slot i, duplicate slot i (see examples/order). The
// slot numbers are positions in the sorted order, so they name the same
// message in every world that holds the same messages.
//
// Example:
//
//   enum class Msg : std::uint8_t { none, prepare, commit };  // none == Msg{}
//   struct World {
//     merilo::explore::Network<Msg, 4> net;
//     std::uint8_t phase = 0;
//   };
//   World w;
//   w.net.send(Msg::commit);
//   w.net.send(Msg::prepare);   // w.net[0] == Msg::prepare, w.net[1] == Msg::commit
//   Msg m = w.net.take(0);      // delivered: w.net[0] == Msg::commit
//
// NOTE: the empty message is `M{}`: a value-initialised `M` must never be a
// real message (give an enum a `none = 0`, a struct a type field whose zero
// means none). `Order` compares two real messages; it must be a strict
// weak order under which messages that compare equivalent are equal, or
// the canonical form is lost.
#ifndef MERILO_EXPLORE_NETWORK_HPP
#define MERILO_EXPLORE_NETWORK_HPP

#include <algorithm>    // std::sort
#include <array>        // the slots
#include <cstddef>      // std::size_t
#include <functional>   // std::less
#include <type_traits>  // std::is_trivially_copyable_v

namespace merilo::explore {

/// At most `N` messages of type `M` in flight, kept sorted by `Order`, empty
/// slots (`M{}`) last.
template <class M, std::size_t N, class Order = std::less<M>>
class Network {
  static_assert(N > 0, "a network holds at least one message");
  static_assert(std::is_trivially_copyable_v<M>,
                "a world holds its network by value: M must be trivially copyable");

 public:
  /// How many messages it holds at most.
  static constexpr std::size_t kSlots = N;

  /// Empty.
  constexpr Network() = default;

  /// The number of messages in flight.
  [[nodiscard]] constexpr std::size_t size() const noexcept {
    std::size_t n = 0;
    while (n < N && !is_none(slots_[n])) ++n;
    return n;
  }
  /// No message is in flight.
  [[nodiscard]] constexpr bool empty() const noexcept { return is_none(slots_[0]); }
  /// `N` messages are in flight: `send` and `duplicate` would refuse.
  [[nodiscard]] constexpr bool full() const noexcept { return !is_none(slots_[N - 1]); }
  /// Slot `slot` (< N) holds a message.
  [[nodiscard]] constexpr bool occupied(std::size_t slot) const noexcept {
    return slot < N && !is_none(slots_[slot]);
  }
  /// The message in slot `slot` (< N), in sorted order; `M{}` past the last.
  [[nodiscard]] constexpr const M& operator[](std::size_t slot) const noexcept {
    return slots_[slot];
  }

  /// Puts `m` in flight; false (and no change) when the network is full.
  /// `m` must not be `M{}`.
  constexpr bool send(const M& m) {
    if (full()) return false;
    slots_[N - 1] = m;
    normalize();
    return true;
  }
  /// Takes the message in slot `slot` out of flight (delivered or lost) and
  /// returns it; `M{}` when the slot is empty.
  constexpr M take(std::size_t slot) {
    if (!occupied(slot)) return M{};
    const M m = slots_[slot];
    slots_[slot] = M{};
    normalize();
    return m;
  }
  /// Puts a second copy of the message in slot `slot` in flight; false
  /// (and no change) when the slot is empty or the network full.
  constexpr bool duplicate(std::size_t slot) {
    if (!occupied(slot)) return false;
    return send(slots_[slot]);
  }

  /// The slots, sorted, empty ones last (for printing a world whole).
  [[nodiscard]] constexpr const std::array<M, N>& slots() const noexcept { return slots_; }

  /// The same messages in flight.
  friend constexpr bool operator==(const Network& a, const Network& b) noexcept {
    return a.slots_ == b.slots_;
  }

 private:
  static constexpr bool is_none(const M& m) noexcept { return m == M{}; }

  constexpr void normalize() {
    std::sort(slots_.begin(), slots_.end(), [](const M& a, const M& b) {
      if (is_none(a)) return false;
      if (is_none(b)) return true;
      return Order{}(a, b);
    });
  }

  std::array<M, N> slots_{};
};

}  // namespace merilo::explore

#endif  // MERILO_EXPLORE_NETWORK_HPP
