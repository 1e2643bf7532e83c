// voter.hpp — a two-phase-commit participant.
//
// A voter is asked to prepare, votes yes (it can commit and promises to) or
// no (it aborts at once), then applies the coordinator's decision and
// acknowledges it. A decided voter acknowledges every decision it is sent
// again (a recovering coordinator resends) but keeps its own: a voter cannot
// undo a decision, which is why the coordinator must never send both.
//
//   idle ──prepare──► asked ──vote_yes──► prepared ──commit──► committed
//     │                 │ vote_no           │ abort
//     └──abort──────────┴───────────────────┴────────────────► aborted
#ifndef MERILO_EXAMPLES_TWOPHASE_VOTER_HPP
#define MERILO_EXAMPLES_TWOPHASE_VOTER_HPP

#include <cstdint>
#include <string_view>

#include <merilo/fsm/fsm.hpp>
#include <merilo/fsm/world.hpp>

namespace twophase {

namespace fsm = merilo::fsm;

enum class VoterState : std::uint8_t { none, idle, asked, prepared, committed, aborted };
/// What happens to a voter: a message from the coordinator, or its own
/// vote. `none` is the zero sentinel.
enum class VoterEvent : std::uint8_t { none, prepare, vote_yes, vote_no, commit, abort };
/// What the voter's holder sends to the coordinator.
enum class VoterAction : std::uint8_t { send_yes, send_no, send_ack };

[[nodiscard]] constexpr std::string_view name(VoterState s) noexcept {
  switch (s) {
    case VoterState::none:
      return "none";
    case VoterState::idle:
      return "idle";
    case VoterState::asked:
      return "asked";
    case VoterState::prepared:
      return "prepared";
    case VoterState::committed:
      return "committed";
    case VoterState::aborted:
      return "aborted";
  }
  return "?";
}

[[nodiscard]] constexpr std::string_view name(VoterEvent e) noexcept {
  switch (e) {
    case VoterEvent::none:
      return "none";
    case VoterEvent::prepare:
      return "prepare";
    case VoterEvent::vote_yes:
      return "vote_yes";
    case VoterEvent::vote_no:
      return "vote_no";
    case VoterEvent::commit:
      return "commit";
    case VoterEvent::abort:
      return "abort";
  }
  return "?";
}

/// A voter. A value type: `fire` returns the next one.
class Voter {
 public:
  using Fired = fsm::Fired<Voter, VoterAction>;

  /// The zero machine, which refuses everything.
  constexpr Voter() noexcept = default;
  /// A new voter, not yet asked.
  [[nodiscard]] static constexpr Voter make() noexcept { return Voter{VoterState::idle}; }
  /// A voter in `s`, for tables.
  [[nodiscard]] static constexpr Voter in(VoterState s) noexcept { return Voter{s}; }

  [[nodiscard]] constexpr VoterState state() const noexcept { return state_; }

  [[nodiscard]] constexpr Fired fire(VoterEvent e) const noexcept {
    using fsm::Outcome;
    using S = VoterState;
    switch (state_) {
      case S::idle:
        switch (e) {
          case VoterEvent::prepare:
            return {Voter{S::asked}, {}, Outcome::moved};
          case VoterEvent::abort:
            return {Voter{S::aborted}, VoterAction::send_ack, Outcome::moved};
          case VoterEvent::commit:  // commit before any vote: impossible
          case VoterEvent::vote_yes:
          case VoterEvent::vote_no:
            return {*this, {}, Outcome::rejected};
          case VoterEvent::none:
            break;
        }
        break;
      case S::asked:
        switch (e) {
          case VoterEvent::vote_yes:
            return {Voter{S::prepared}, VoterAction::send_yes, Outcome::moved};
          case VoterEvent::vote_no:
            return {Voter{S::aborted}, VoterAction::send_no, Outcome::moved};
          case VoterEvent::abort:
            return {Voter{S::aborted}, VoterAction::send_ack, Outcome::moved};
          case VoterEvent::prepare:
            return {*this, {}, Outcome::ignored};  // duplicate
          case VoterEvent::commit:
            return {*this, {}, Outcome::rejected};
          case VoterEvent::none:
            break;
        }
        break;
      case S::prepared:
        switch (e) {
          case VoterEvent::commit:
            return {Voter{S::committed}, VoterAction::send_ack, Outcome::moved};
          case VoterEvent::abort:
            return {Voter{S::aborted}, VoterAction::send_ack, Outcome::moved};
          case VoterEvent::prepare:
            return {*this, {}, Outcome::ignored};
          case VoterEvent::vote_yes:
          case VoterEvent::vote_no:
            return {*this, {}, Outcome::rejected};
          case VoterEvent::none:
            break;
        }
        break;
      case S::committed:
      case S::aborted:
        return decided(e);
      case S::none:
        break;
    }
    return {*this, {}, Outcome::invalid};
  }

  friend constexpr bool operator==(const Voter&, const Voter&) noexcept = default;

 private:
  constexpr explicit Voter(VoterState s) noexcept : state_(s) {}

  // A decided voter acknowledges any decision again and keeps its own.
  [[nodiscard]] constexpr Fired decided(VoterEvent e) const noexcept {
    using fsm::Outcome;
    switch (e) {
      case VoterEvent::commit:
      case VoterEvent::abort:
        return {*this, VoterAction::send_ack, Outcome::moved};
      case VoterEvent::prepare:
        return {*this, {}, Outcome::ignored};
      case VoterEvent::vote_yes:
      case VoterEvent::vote_no:
        return {*this, {}, Outcome::rejected};
      case VoterEvent::none:
        break;
    }
    return {*this, {}, Outcome::invalid};
  }

  VoterState state_ = VoterState::none;
};

static_assert(fsm::Machine<Voter, VoterEvent>);
static_assert(fsm::ByteHashable<Voter>);

}  // namespace twophase

#endif  // MERILO_EXAMPLES_TWOPHASE_VOTER_HPP
