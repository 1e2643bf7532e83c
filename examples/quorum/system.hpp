// system.hpp — a replicated register: one write to kReplicas replicas that
// completes on a write quorum, then one read that asks the reader's zone.
//
// The protocol: the writer sends version 1 to every replica and counts the
// acknowledgements; once kWriteQuorum replicas have stored it the write is
// complete. Only then does the reader start a read: it asks the replicas of
// its zone — half of them, those in its data centre — and waits for all of
// their answers, taking the highest version any of them holds. A replica
// stores the write whenever its copy arrives, so a replica of the zone may
// answer before or after it has the write. Replicas are placed in the two
// data centres by the parity of their number's bits (a stand-in for
// placement by hash): the zone of 16 replicas is r1 r2 r4 r7 r8 r11 r13
// r14, of 6 it is r1 r2 r4.
//
// The read must return version 1: it started after the write completed.
// That holds when every write quorum meets the reader's zone, which is the
// case for a majority (kReplicas / 2 + 1) against a zone of half the
// replicas. The seeded bug, `Bug::half_quorum`, completes the write at half
// the replicas (`acks >= n / 2` where `acks > n / 2` was meant): the write
// can then complete on exactly the replicas outside the zone, and a zone
// that answers before its copies arrive returns version 0.
//
// Which replicas acknowledged is a combination, not a branch: every replica
// runs the same code, so coverage-guided fuzzing gets no signal that it is
// getting closer to "every acknowledgement from outside the zone". The
// tuple names what the correctness argument is about — how many of the
// zone hold the write — so a bounded search hands the fuzzer the shortest
// schedule to "write complete, no replica of the zone holds it", and the
// fuzzer only has to start the read there. See docs/fuzz.md ("Bugs deep
// beyond the search").
//
// Kinds, in this order (the fuzzer's drain takes the lowest enabled one):
// the writer starts (0); the j-th replica of the zone answers (1 ..
// kZone); the copy in slot s is delivered, and its replica stores the write
// and acknowledges it (kZone + 1 .. kZone + kReplicas; the copies still in
// flight fill the slots in replica order, as a network's queue would, so a
// slot names a position, not a replica); the reader starts (last). A store and
// its acknowledgement are one step, and so are a question and its answer:
// delaying either half separately adds worlds but no new outcome. The drain
// stores everywhere before it reads, so it never finds the bug by itself.
//
// The invariant: a read that started after the write completed returns
// version 1.
#ifndef MERILO_EXAMPLES_QUORUM_SYSTEM_HPP
#define MERILO_EXAMPLES_QUORUM_SYSTEM_HPP

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>

#include <merilo/explore/system.hpp>
#include <merilo/fsm/world.hpp>

namespace quorum {

namespace ex = merilo::explore;

/// The seeded bugs.
enum class Bug : std::uint8_t {
  none,
  half_quorum,  ///< The write completes at n / 2 acknowledgements, not a majority.
};

/// Where the writer and the reader are.
enum class Phase : std::uint8_t { idle, running, done };

[[nodiscard]] constexpr const char* name(Phase p) noexcept {
  switch (p) {
    case Phase::idle:
      return "idle";
    case Phase::running:
      return "running";
    case Phase::done:
      return "done";
  }
  return "?";
}

/// The adapter merilo explores and fuzzes: `kReplicas` replicas (even, at
/// most 32), one write, one read.
template <Bug bug = Bug::none, std::size_t kReplicas = 6>
class System {
  static_assert(kReplicas >= 2 && kReplicas <= 32 && kReplicas % 2 == 0,
                "quorum::System needs an even number of replicas, at most 32");

 public:
  /// How many replicas the reader asks: half of them.
  static constexpr std::size_t kZone = kReplicas / 2;
  /// Acknowledgements that complete the write.
  static constexpr std::size_t kWriteQuorum =
      bug == Bug::half_quorum ? kReplicas / 2 : kReplicas / 2 + 1;

  static constexpr ex::Kind kWrite = 0;
  static constexpr ex::Kind kAnswer = 1;
  static constexpr ex::Kind kStore = kAnswer + kZone;
  static constexpr ex::Kind kRead = kStore + kReplicas;
  static constexpr ex::Kind kKinds = kRead + 1;

  struct World {
    Phase writer = Phase::idle;
    Phase reader = Phase::idle;
    std::uint8_t acks = 0;       // acknowledgements the writer counted
    std::uint8_t version = 0;    // the highest version the reader was told
    std::uint32_t stored = 0;    // bit i: replica i holds version 1
    std::uint32_t pending = 0;   // bit i: replica i's copy is still in flight
    std::uint32_t answered = 0;  // bit i: replica i (of the zone) answered
  };
  static_assert(merilo::fsm::ByteHashable<World>);

  void reset() { w_ = World{}; }
  [[nodiscard]] std::size_t kinds() const { return kKinds; }

  [[nodiscard]] bool enabled(ex::Kind k) const {
    if (k == kWrite) return w_.writer == Phase::idle;
    if (k < kStore) return w_.reader == Phase::running && !has(w_.answered, zone_replica(k));
    if (k < kRead) return static_cast<std::size_t>(std::popcount(w_.pending)) > k - kStore;
    return w_.writer == Phase::done && w_.reader == Phase::idle;
  }

  ex::Status apply(ex::Kind k) {
    if (k == kWrite) {
      w_.writer = Phase::running;
      w_.pending = kAll;
    } else if (k < kStore) {
      const std::size_t r = zone_replica(k);
      w_.answered |= bit(r);
      // The answer is the replica's version: 1 when it holds the write.
      w_.version = static_cast<std::uint8_t>(w_.version | ((w_.stored >> r) & 1U));
      if (w_.answered == kZoneReplicas) w_.reader = Phase::done;
    } else if (k < kRead) {
      const std::size_t i = in_flight(k - kStore);
      w_.pending &= ~bit(i);
      w_.stored |= bit(i);
      if (w_.writer == Phase::running && ++w_.acks == kWriteQuorum) w_.writer = Phase::done;
    } else {
      w_.reader = Phase::running;
    }
    return {};
  }

  [[nodiscard]] const World& world() const { return w_; }
  void restore(const World& w) { w_ = w; }

  [[nodiscard]] std::array<ex::Invariant<System>, 1> invariants() const {
    return {{{"a read after a completed write returns it",
              [](const System& s) { return s.read_sees_write(); }}}};
  }

  /// The writer, the reader, and how many replicas of the reader's zone
  /// hold the write.
  [[nodiscard]] std::string tuple() const {
    return std::string("writer:") + name(w_.writer) + " reader:" + name(w_.reader) +
           " zone-holds:" + std::to_string(std::popcount(w_.stored & kZoneReplicas)) + "/" +
           std::to_string(kZone);
  }

  /// Stopped by design: the read is over.
  [[nodiscard]] bool settled() const { return w_.reader == Phase::done; }

  [[nodiscard]] std::string describe(ex::Kind k) const {
    if (k == kWrite) return "writer sends version 1 to every replica";
    if (k < kStore) {
      const std::size_t r = zone_replica(k);
      return "r" + std::to_string(r) + " answers version " + std::to_string((w_.stored >> r) & 1U);
    }
    if (k < kRead) {
      const std::size_t i = in_flight(k - kStore);
      return "r" + std::to_string(i) + " stores version 1 and acknowledges" +
             (w_.writer == Phase::running && w_.acks + 1U == kWriteQuorum ? " (write complete)"
                                                                          : "");
    }
    return "reader asks its zone";
  }

 private:
  static constexpr std::uint32_t bit(std::size_t i) { return std::uint32_t{1} << i; }
  static constexpr bool has(std::uint32_t set, std::size_t i) { return ((set >> i) & 1U) != 0; }
  static constexpr std::uint32_t kAll =
      kReplicas == 32 ? ~std::uint32_t{0} : (std::uint32_t{1} << kReplicas) - 1;
  // The zone: the replicas whose number has an odd count of set bits.
  static constexpr std::uint32_t kZoneReplicas = [] {
    std::uint32_t zone = 0;
    for (std::size_t i = 0; i < kReplicas; ++i) {
      if (std::popcount(i) % 2 == 1) zone |= bit(i);
    }
    return zone;
  }();
  static_assert(std::popcount(kZoneReplicas) == kZone);

  // The replica whose copy is the `slot`-th still in flight.
  [[nodiscard]] std::size_t in_flight(std::size_t slot) const {
    std::uint32_t p = w_.pending;
    for (std::size_t n = 0; n < slot; ++n) p &= p - 1;  // drop the lowest
    return static_cast<std::size_t>(std::countr_zero(p));
  }

  // The zone's replicas in increasing order.
  static constexpr std::array<std::uint8_t, kZone> kZoneList = [] {
    std::array<std::uint8_t, kZone> list{};
    std::size_t j = 0;
    for (std::size_t i = 0; i < kReplicas; ++i) {
      if (has(kZoneReplicas, i)) list[j++] = static_cast<std::uint8_t>(i);
    }
    return list;
  }();

  // The replica the answer kind `k` stands for.
  static constexpr std::size_t zone_replica(ex::Kind k) { return kZoneList[k - kAnswer]; }

  [[nodiscard]] ex::InvariantCheck read_sees_write() const {
    if (w_.reader != Phase::done || w_.version == 1) return true;
    return ex::InvariantCheck::fails(
        "the read returned version 0 after the write completed: every replica of the "
        "reader's zone answered before its copy of the write arrived");
  }

  World w_{};
};

}  // namespace quorum

#endif  // MERILO_EXAMPLES_QUORUM_SYSTEM_HPP
