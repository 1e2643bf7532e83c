// system.hpp — a two-phase-commit round: the coordinator, two voters, a
// network between them, and one crash of the coordinator.
//
// The protocol: the coordinator starts the round by sending prepare to both
// voters; each voter, once asked, votes yes or no; the coordinator decides,
// logs and sends the decision; each voter applies it and acknowledges. The
// coordinator may crash once, at any moment while it runs, and recovers from
// its log (see coordinator.hpp). The network delivers the messages in flight
// in any order; it keeps them in an explore::Network (sorted, so the order
// they were sent in does not split one world into many).
//
// Kinds, in this order (the fuzzer's drain takes the lowest enabled one, so
// an asked voter votes yes before anything is delivered, and the drain
// never crashes the coordinator): voter v votes yes (0..1), voter v votes no
// (2..3), deliver slot i (4..11), the coordinator starts (12), crashes (13),
// recovers (14).
//
// Invariants: "commit only after every voter voted yes" and "no voter's
// outcome contradicts the log" (once a decision is logged, no voter ends
// the other way). The holder's mode rule (running -> down -> running, running ->
// finished) is checked on every step. The fixed round has 942 reachable
// worlds, the farthest 17 steps away. `commit_on_first_yes` breaks the first
// invariant in 4 steps; `log_after_ack` breaks the second in 10, behind a
// crash at the one moment that matters.
#ifndef MERILO_EXAMPLES_TWOPHASE_SYSTEM_HPP
#define MERILO_EXAMPLES_TWOPHASE_SYSTEM_HPP

#include <array>
#include <cstdint>
#include <string>

#include <merilo/explore/network.hpp>
#include <merilo/explore/system.hpp>
#include <merilo/fsm/world.hpp>

#include <twophase/coordinator.hpp>
#include <twophase/voter.hpp>

namespace twophase {

namespace ex = merilo::explore;

/// A message's type; `none` marks an empty slot.
enum class Msg : std::uint8_t { none, prepare, yes, no, abort, commit, ack };

[[nodiscard]] constexpr std::string_view name(Msg m) noexcept {
  switch (m) {
    case Msg::none:
      return "none";
    case Msg::prepare:
      return "prepare";
    case Msg::yes:
      return "yes";
    case Msg::no:
      return "no";
    case Msg::abort:
      return "abort";
    case Msg::commit:
      return "commit";
    case Msg::ack:
      return "ack";
  }
  return "?";
}

/// A message between the coordinator and voter `voter`.
struct Message {
  Msg type = Msg::none;
  std::uint8_t voter = 0;
  friend constexpr bool operator==(const Message&, const Message&) noexcept = default;
};

/// The order the network keeps its messages in: by type, then voter.
struct MessageOrder {
  constexpr bool operator()(const Message& a, const Message& b) const noexcept {
    return a.type != b.type ? a.type < b.type : a.voter < b.voter;
  }
};

/// The adapter merilo explores and fuzzes.
template <Bugs bugs = Bugs{}>
class System {
 public:
  static constexpr std::size_t kSlots = 8;
  static constexpr ex::Kind kYes = 0;
  static constexpr ex::Kind kNo = kYes + kVoters;
  static constexpr ex::Kind kDeliver = kNo + kVoters;
  static constexpr ex::Kind kStart = kDeliver + kSlots;
  static constexpr ex::Kind kCrash = kStart + 1;
  static constexpr ex::Kind kRecover = kCrash + 1;
  static constexpr ex::Kind kKinds = kRecover + 1;

  struct World {
    Coordinator<bugs> coordinator;
    std::array<Voter, kVoters> voters;
    ex::Network<Message, kSlots, MessageOrder> net;  // in flight, sorted
    std::uint8_t crashes_left = 1;
    std::uint8_t pad = 0;
  };
  static_assert(merilo::fsm::ByteHashable<World>);

  void reset() { w_ = World{Coordinator<bugs>::make(), {Voter::make(), Voter::make()}, {}, 1, 0}; }
  [[nodiscard]] std::size_t kinds() const { return kKinds; }

  [[nodiscard]] bool enabled(ex::Kind k) const {
    if (k < kDeliver) return w_.voters[(k - kYes) % kVoters].state() == VoterState::asked;
    if (k < kStart) return w_.net.occupied(k - kDeliver);
    const CoordState s = w_.coordinator.state();
    if (k == kStart) return s == CoordState::init;
    if (k == kCrash) return w_.crashes_left > 0 && w_.coordinator.mode() == Mode::running;
    return s == CoordState::down;
  }

  ex::Status apply(ex::Kind k) {
    if (k < kNo) return fire_voter(k - kYes, VoterEvent::vote_yes);
    if (k < kDeliver) return fire_voter(k - kNo, VoterEvent::vote_no);
    if (k < kStart) return deliver(k - kDeliver);
    if (k == kStart) return fire_coordinator(CoordEvent{CoordOp::start, 0});
    if (k == kCrash) {
      --w_.crashes_left;
      return fire_coordinator(CoordEvent{CoordOp::crash, 0});
    }
    return fire_coordinator(CoordEvent{CoordOp::recover, 0});
  }

  [[nodiscard]] const World& world() const { return w_; }
  void restore(const World& w) { w_ = w; }

  /// The invariants, each a name and a predicate, listed once.
  [[nodiscard]] std::array<ex::Invariant<System>, 2> invariants() const {
    return {{{"commit only after every voter voted yes",
              [](const System& s) { return s.commit_after_all_yes(); }},
             {"no voter's outcome contradicts the log",
              [](const System& s) { return s.outcomes_match_log(); }}}};
  }

  [[nodiscard]] std::string tuple() const {
    std::string t = "coord:" + std::string(name(w_.coordinator.state()));
    for (std::size_t v = 0; v < kVoters; ++v) {
      t += " v" + std::to_string(v) + ":" + std::string(name(w_.voters[v].state()));
    }
    return t;
  }

  /// Stopped by design: the coordinator finished and nothing is in flight.
  [[nodiscard]] bool settled() const {
    return w_.coordinator.mode() == Mode::finished && w_.net.empty();
  }

  [[nodiscard]] std::string describe(ex::Kind k) const {
    if (k < kNo) return "v" + std::to_string(k - kYes) + " votes yes";
    if (k < kDeliver) return "v" + std::to_string(k - kNo) + " votes no";
    if (k < kStart) {
      const Message m = w_.net[k - kDeliver];
      const std::string v = "v" + std::to_string(m.voter);
      const bool to_voter = m.type == Msg::prepare || m.type == Msg::commit || m.type == Msg::abort;
      return "deliver " + std::string(name(m.type)) +
             (to_voter ? " coord->" + v : " " + v + "->coord");
    }
    if (k == kStart) return "coordinator starts";
    if (k == kCrash) return "coordinator crashes";
    return "coordinator recovers";
  }

 private:
  [[nodiscard]] ex::InvariantCheck commit_after_all_yes() const {
    if (!w_.coordinator.decided_commit()) return true;
    for (std::size_t v = 0; v < kVoters; ++v) {
      const VoterState s = w_.voters[v].state();
      if (s != VoterState::prepared && s != VoterState::committed) {
        return ex::InvariantCheck::fails("the coordinator decided commit while v" +
                                         std::to_string(v) + " is " + std::string(name(s)));
      }
    }
    return true;
  }

  [[nodiscard]] ex::InvariantCheck outcomes_match_log() const {
    const Decision logged = w_.coordinator.logged();
    const VoterState contradicts = logged == Decision::commit  ? VoterState::aborted
                                   : logged == Decision::abort ? VoterState::committed
                                                               : VoterState::none;
    for (std::size_t v = 0; v < kVoters; ++v) {
      if (contradicts != VoterState::none && w_.voters[v].state() == contradicts) {
        return ex::InvariantCheck::fails(
            "the log says " + std::string(logged == Decision::commit ? "commit" : "abort") +
            " but v" + std::to_string(v) + " " + std::string(name(contradicts)));
      }
    }
    return true;
  }

  ex::Status deliver(std::size_t slot) {
    const Message m = w_.net.take(slot);
    switch (m.type) {
      case Msg::prepare:
        return fire_voter(m.voter, VoterEvent::prepare);
      case Msg::commit:
        return fire_voter(m.voter, VoterEvent::commit);
      case Msg::abort:
        return fire_voter(m.voter, VoterEvent::abort);
      case Msg::yes:
        return fire_coordinator(CoordEvent{CoordOp::yes, m.voter});
      case Msg::no:
        return fire_coordinator(CoordEvent{CoordOp::no, m.voter});
      case Msg::ack:
        return fire_coordinator(CoordEvent{CoordOp::ack, m.voter});
      case Msg::none:
        break;
    }
    return ex::Status::error("delivered an empty slot");
  }

  // The holder's rule for the coordinator's mode.
  static bool mode_change_allowed(Mode from, Mode to) {
    if (from == to) return true;
    return (from == Mode::running && (to == Mode::down || to == Mode::finished)) ||
           (from == Mode::down && to == Mode::running);
  }

  ex::Status fire_coordinator(CoordEvent e) {
    const Mode before = w_.coordinator.mode();
    auto [next, actions, outcome] = w_.coordinator.fire(e);
    if (auto refusal = merilo::fsm::err(outcome)) {
      return ex::Status::error(std::string(name(e.op)) + " at the coordinator in " +
                               std::string(name(w_.coordinator.state())) + " was " +
                               std::string(refusal.what()));
    }
    if (!mode_change_allowed(before, next.mode())) {
      return ex::Status::mode_change(std::string(name(before)) + " -> " +
                                     std::string(name(next.mode())));
    }
    w_.coordinator = next;
    ex::Status sent;
    actions.for_each([&](CoordAction a) {
      Msg m = Msg::none;
      switch (a) {
        case CoordAction::prepare_all:
          m = Msg::prepare;
          break;
        case CoordAction::commit_all:
          m = Msg::commit;
          break;
        case CoordAction::abort_all:
          m = Msg::abort;
          break;
      }
      for (std::uint8_t v = 0; v < kVoters && sent.ok(); ++v) sent = push(Message{m, v});
    });
    return sent;
  }

  ex::Status fire_voter(std::size_t v, VoterEvent e) {
    Voter& voter = w_.voters[v];
    auto [next, actions, outcome] = voter.fire(e);
    if (auto refusal = merilo::fsm::err(outcome)) {
      return ex::Status::error(std::string(name(e)) + " at v" + std::to_string(v) + " in " +
                               std::string(name(voter.state())) + " was " +
                               std::string(refusal.what()));
    }
    voter = next;
    const auto id = static_cast<std::uint8_t>(v);
    ex::Status sent;
    actions.for_each([&](VoterAction a) {
      switch (a) {
        case VoterAction::send_yes:
          sent = push(Message{Msg::yes, id});
          return;
        case VoterAction::send_no:
          sent = push(Message{Msg::no, id});
          return;
        case VoterAction::send_ack:
          sent = push(Message{Msg::ack, id});
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

}  // namespace twophase

#endif  // MERILO_EXAMPLES_TWOPHASE_SYSTEM_HPP
