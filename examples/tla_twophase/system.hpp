// system.hpp — Gray and Lamport's TwoPhase (the TLA+ specification of
// two-phase commit) as a merilo adapter, for benchmarks and as an example of
// a protocol-sized state space.
//
// One transaction manager (TM) and `N` resource managers (RMs). An RM starts
// working, then prepares or chooses to abort on its own; the TM collects
// "prepared" messages, commits once every RM has prepared, or aborts at any
// time before; RMs then learn the decision from the commit or abort message.
// Messages are never lost or removed, so the message set only grows. The
// invariant (TCConsistent): no RM has committed while another has aborted.
//
// The world is a few bit sets (two bits of state per RM), 12 bytes for up
// to 16 RMs, so a step is a handful of bit operations. The reachable worlds
// are the known TLC counts: 3 RMs 288, 5 RMs 8,832, 7 RMs 296,448, 8 RMs
// 1,745,408, 9 RMs 10,340,352, 10 RMs 61,515,776.
//
// Kinds, for `N` RMs (5N + 2 of them): for each RM r, `kPrepare` (RMPrepare),
// `kChooseAbort` (RMChooseToAbort), `kRcvCommit` (RMRcvCommitMsg),
// `kRcvAbort` (RMRcvAbortMsg), `kTmRcvPrepared` (TMRcvPrepared) at index
// `5 * r + action`; then TMCommit at `5N` and TMAbort at `5N + 1`.
//
// The tuple counts the RMs in each state ("tm:init working=2 prepared=1
// committed=0 aborted=0"): naming every RM's state would give 3 * 4^N
// tuples, millions at 10 RMs, each with a stored trace. `tuple_key()` gives
// the same information as one integer, so the explorer builds the string
// only for tuples it has not seen (docs/explore.md, "Tuples").
//
// `Bug::early_commit` seeds a bug: the TM commits once any RM has prepared.
//
// The RMs are interchangeable: renaming them maps reachable worlds to
// reachable worlds and keeps every rule. `Symmetry::rms` gives the adapter
// a `canonical()` that sorts the RMs' slots (state, tmPrepared bit,
// "prepared" message bit), so the explorer stores one world per renaming
// class: 288 -> 80 at 3 RMs, 8,832 -> 314 at 5, 10,340,352 -> 2,232 at 9,
// 6,656 at 12 (docs/benchmarks.md); its traces are still concrete steps of
// named RMs.
//
// Two sometimes properties (merilo/explore/sometimes.hpp) make sure the
// invariant is put to the test: some RM commits (first at depth 2N + 2),
// every RM commits (3N + 1).
#ifndef MERILO_EXAMPLES_TLA_TWOPHASE_SYSTEM_HPP
#define MERILO_EXAMPLES_TLA_TWOPHASE_SYSTEM_HPP

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <string>

#include <merilo/explore/system.hpp>

namespace tla_twophase {

/// Seeded bugs, switched at compile time.
enum class Bug : std::uint8_t { none, early_commit };
/// Whether the adapter offers the RMs' symmetry (`canonical()`).
enum class Symmetry : std::uint8_t { none, rms };

/// An RM's state, two bits of `World::rm_state`.
enum class Rm : std::uint8_t { working, prepared, committed, aborted };
/// The TM's state.
enum class Tm : std::uint8_t { init, committed, aborted };

/// The adapter for `N` resource managers (1..16).
template <unsigned N, Bug bug = Bug::none, Symmetry symmetry = Symmetry::none>
class System {
  static_assert(N >= 1 && N <= 16, "TwoPhase: 1 to 16 resource managers");

 public:
  /// Actions per RM, at kind `5 * rm + action`.
  enum Action : unsigned { kPrepare, kChooseAbort, kRcvCommit, kRcvAbort, kTmRcvPrepared };
  static constexpr unsigned kPerRm = 5;
  /// TMCommit's kind.
  static constexpr merilo::explore::Kind kTmCommit = merilo::explore::Kind{kPerRm} * N;
  /// TMAbort's kind.
  static constexpr merilo::explore::Kind kTmAbort = merilo::explore::Kind{kPerRm} * N + 1;
  static constexpr std::uint16_t kAll = static_cast<std::uint16_t>((1U << N) - 1U);

  /// One world: every variable of the specification, as bit sets.
  struct World {
    std::uint32_t rm_state = 0;      ///< Two bits per RM (`Rm`).
    std::uint16_t tm_prepared = 0;   ///< tmPrepared: RMs the TM knows prepared.
    std::uint16_t msg_prepared = 0;  ///< "Prepared" messages sent, one bit per RM.
    std::uint8_t tm_state = 0;       ///< `Tm`.
    std::uint8_t msg_commit = 0;     ///< The "Commit" message was sent.
    std::uint8_t msg_abort = 0;      ///< The "Abort" message was sent.
    std::uint8_t pad_ = 0;           ///< Explicit padding, always 0.
  };

  void reset() { w_ = World{}; }
  [[nodiscard]] std::size_t kinds() const { return kPerRm * N + 2; }

  [[nodiscard]] bool enabled(merilo::explore::Kind k) const {
    if (k == kTmCommit) {
      if constexpr (bug == Bug::early_commit) return tm() == Tm::init && w_.tm_prepared != 0;
      return tm() == Tm::init && w_.tm_prepared == kAll;
    }
    if (k == kTmAbort) return tm() == Tm::init;
    const auto r = static_cast<unsigned>(k / kPerRm);
    switch (static_cast<Action>(k % kPerRm)) {
      case kPrepare:
      case kChooseAbort:
        return rm(r) == Rm::working;
      case kRcvCommit:
        return w_.msg_commit != 0;
      case kRcvAbort:
        return w_.msg_abort != 0;
      case kTmRcvPrepared:
        return tm() == Tm::init && (w_.msg_prepared >> r & 1U) != 0;
    }
    return false;
  }

  merilo::explore::Status apply(merilo::explore::Kind k) {
    if (k == kTmCommit) {
      w_.tm_state = static_cast<std::uint8_t>(Tm::committed);
      w_.msg_commit = 1;
      return {};
    }
    if (k == kTmAbort) {
      w_.tm_state = static_cast<std::uint8_t>(Tm::aborted);
      w_.msg_abort = 1;
      return {};
    }
    const auto r = static_cast<unsigned>(k / kPerRm);
    const auto bit = static_cast<std::uint16_t>(1U << r);
    switch (static_cast<Action>(k % kPerRm)) {
      case kPrepare:
        set_rm(r, Rm::prepared);
        w_.msg_prepared = static_cast<std::uint16_t>(w_.msg_prepared | bit);
        break;
      case kChooseAbort:
      case kRcvAbort:
        set_rm(r, Rm::aborted);
        break;
      case kRcvCommit:
        set_rm(r, Rm::committed);
        break;
      case kTmRcvPrepared:
        w_.tm_prepared = static_cast<std::uint16_t>(w_.tm_prepared | bit);
        break;
    }
    return {};
  }

  [[nodiscard]] const World& world() const { return w_; }
  void restore(const World& w) { w_ = w; }

  /// With `Symmetry::rms`: `w` with its RMs renamed so that their slots
  /// (state in bits 0-1, tmPrepared in bit 2, the "prepared" message in
  /// bit 3) ascend: one world per renaming class.
  [[nodiscard]] World canonical(const World& w) const requires(symmetry == Symmetry::rms) {
    std::array<std::uint8_t, N> slots{};
    for (unsigned r = 0; r < N; ++r) {
      slots[r] =
          static_cast<std::uint8_t>((w.rm_state >> (2 * r) & 3U) | (w.tm_prepared >> r & 1U) << 2 |
                                    (w.msg_prepared >> r & 1U) << 3);
    }
    std::sort(slots.begin(), slots.end());
    World c = w;
    c.rm_state = 0;
    c.tm_prepared = 0;
    c.msg_prepared = 0;
    for (unsigned r = 0; r < N; ++r) {
      c.rm_state |= static_cast<std::uint32_t>(slots[r] & 3U) << (2 * r);
      c.tm_prepared = static_cast<std::uint16_t>(c.tm_prepared | (slots[r] >> 2 & 1U) << r);
      c.msg_prepared = static_cast<std::uint16_t>(c.msg_prepared | (slots[r] >> 3 & 1U) << r);
    }
    return c;
  }

  /// TCConsistent.
  [[nodiscard]] std::array<merilo::explore::Invariant<System>, 1> invariants() const {
    return {{{"no RM commits while another aborts", [](const System& s) {
                return s.count(Rm::committed) == 0 || s.count(Rm::aborted) == 0;
              }}}};
  }

  /// Some RM commits; every RM commits.
  [[nodiscard]] std::array<merilo::explore::Sometimes<System>, 2> sometimes() const {
    return {{{"some RM commits", [](const System& s) { return s.count(Rm::committed) > 0; }},
             {"every RM commits", [](const System& s) { return s.count(Rm::committed) == N; }}}};
  }

  /// The TM's state and how many RMs are in each state.
  [[nodiscard]] std::string tuple() const {
    static constexpr std::array<const char*, 3> kTm{"init", "committed", "aborted"};
    return std::string("tm:") + kTm[w_.tm_state] +
           " working=" + std::to_string(count(Rm::working)) +
           " prepared=" + std::to_string(count(Rm::prepared)) +
           " committed=" + std::to_string(count(Rm::committed)) +
           " aborted=" + std::to_string(count(Rm::aborted));
  }
  /// The tuple as one integer: equal keys, equal tuples.
  [[nodiscard]] std::uint64_t tuple_key() const {
    std::uint64_t key = w_.tm_state;
    for (Rm s : {Rm::working, Rm::prepared, Rm::committed}) key = key * 32 + count(s);
    return key;
  }
  /// The data behind the tuple: every RM's state, tmPrepared and the messages.
  [[nodiscard]] std::string show() const {
    static constexpr std::array<char, 4> kRm{'w', 'p', 'c', 'a'};
    std::string rms;
    std::string prepared;
    std::string sent;
    for (unsigned r = 0; r < N; ++r) {
      rms += kRm[static_cast<unsigned>(rm(r))];
      prepared += (w_.tm_prepared >> r & 1U) != 0 ? '1' : '0';
      sent += (w_.msg_prepared >> r & 1U) != 0 ? '1' : '0';
    }
    std::string msgs = "prepared=" + sent;
    if (w_.msg_commit != 0) msgs += " commit";
    if (w_.msg_abort != 0) msgs += " abort";
    return "rm=" + rms + " tmPrepared=" + prepared + " msgs={" + msgs + "}";
  }

  /// Decided by the TM: its message stays deliverable, so nothing deadlocks.
  [[nodiscard]] bool settled() const { return tm() != Tm::init; }

  [[nodiscard]] std::string describe(merilo::explore::Kind k) const {
    if (k == kTmCommit) return "TMCommit";
    if (k == kTmAbort) return "TMAbort";
    static constexpr std::array<const char*, kPerRm> kNames{
        "RMPrepare", "RMChooseToAbort", "RMRcvCommitMsg", "RMRcvAbortMsg", "TMRcvPrepared"};
    return std::string(kNames[k % kPerRm]) + "(rm" + std::to_string(k / kPerRm) + ")";
  }

 private:
  [[nodiscard]] Tm tm() const { return static_cast<Tm>(w_.tm_state); }
  [[nodiscard]] Rm rm(unsigned r) const { return static_cast<Rm>(w_.rm_state >> (2 * r) & 3U); }
  void set_rm(unsigned r, Rm s) {
    w_.rm_state = (w_.rm_state & ~(3U << (2 * r))) | (static_cast<std::uint32_t>(s) << (2 * r));
  }
  [[nodiscard]] unsigned count(Rm s) const {
    // Bit pairs equal to `s`: xor with s repeated, then pairs that are 00.
    std::uint32_t pattern = 0;
    for (unsigned r = 0; r < N; ++r) pattern |= static_cast<std::uint32_t>(s) << (2 * r);
    const std::uint32_t x = w_.rm_state ^ pattern;
    const std::uint32_t nonzero = (x | x >> 1) & 0x55555555U;
    constexpr auto kMask =
        static_cast<std::uint32_t>(((std::uint64_t{1} << (2 * N)) - 1U) & 0x55555555U);
    return N - static_cast<unsigned>(std::popcount(nonzero & kMask));
  }

  World w_{};
};

}  // namespace tla_twophase

#endif  // MERILO_EXAMPLES_TLA_TWOPHASE_SYSTEM_HPP
