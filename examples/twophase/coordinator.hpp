// coordinator.hpp — a two-phase-commit coordinator for kVoters voters, with
// a durable decision log and crash recovery.
//
// The coordinator asks every voter to prepare, collects the votes, decides
// commit (every voter voted yes) or abort (any voted no), writes the
// decision to its log, sends it to every voter and waits for every
// acknowledgement. It may crash at any moment before it finishes: the votes
// and acknowledgements it collected are lost, the log is not. Recovery reads
// the log: a logged decision is sent to every voter again; with nothing
// logged the coordinator presumes abort (no voter can have committed, since
// commit is logged before it is sent) and logs and sends that.
//
// Modes, derived from the state: `running` (init .. aborting), `down`
// (crashed) and `finished` (committed, aborted). The holder allows
// running -> down -> running and running -> finished, nothing else.
//
//   init ──start──► collecting ──all yes──► committing ──all acks──► committed
//                        └──any no──► aborting ──all acks──► aborted
//   (any running state) ──crash──► down ──recover──► committing | aborting
//
// `Bugs` seeds two bugs, each switchable on its own:
//   * `commit_on_first_yes` — decides commit on the first yes vote, without
//     waiting for the others;
//   * `log_after_ack` — logs commit only when the first voter acknowledges
//     it, so a crash between sending commit and that acknowledgement leaves
//     nothing in the log, and recovery presumes abort for a voter that
//     already committed.
#ifndef MERILO_EXAMPLES_TWOPHASE_COORDINATOR_HPP
#define MERILO_EXAMPLES_TWOPHASE_COORDINATOR_HPP

#include <array>
#include <cstdint>
#include <string_view>

#include <merilo/fsm/fsm.hpp>
#include <merilo/fsm/world.hpp>

namespace twophase {

namespace fsm = merilo::fsm;

/// The seeded bugs to switch on (all off by default). A structural type, so
/// it is a template argument: `Coordinator<Bugs{.log_after_ack = true}>`.
struct Bugs {
  bool commit_on_first_yes = false;
  bool log_after_ack = false;
};

/// Voters per round.
inline constexpr std::uint8_t kVoters = 2;

enum class CoordState : std::uint8_t {
  none,
  init,
  collecting,
  committing,
  aborting,
  committed,
  aborted,
  down
};
enum class Mode : std::uint8_t { none, running, down, finished };
/// The durable log: the decision, once taken.
enum class Decision : std::uint8_t { none, commit, abort };
/// What happens to the coordinator. `none` is the zero sentinel.
enum class CoordOp : std::uint8_t { none, start, yes, no, ack, crash, recover };
/// What the coordinator's holder sends, to every voter.
enum class CoordAction : std::uint8_t { prepare_all, commit_all, abort_all };

/// An event for the coordinator; `voter` says who voted or acknowledged.
struct CoordEvent {
  CoordOp op = CoordOp::none;
  std::uint8_t voter = 0;
};

[[nodiscard]] constexpr std::string_view name(CoordState s) noexcept {
  switch (s) {
    case CoordState::none:
      return "none";
    case CoordState::init:
      return "init";
    case CoordState::collecting:
      return "collecting";
    case CoordState::committing:
      return "committing";
    case CoordState::aborting:
      return "aborting";
    case CoordState::committed:
      return "committed";
    case CoordState::aborted:
      return "aborted";
    case CoordState::down:
      return "down";
  }
  return "?";
}

[[nodiscard]] constexpr std::string_view name(Mode m) noexcept {
  switch (m) {
    case Mode::none:
      return "none";
    case Mode::running:
      return "running";
    case Mode::down:
      return "down";
    case Mode::finished:
      return "finished";
  }
  return "?";
}

[[nodiscard]] constexpr std::string_view name(CoordOp o) noexcept {
  switch (o) {
    case CoordOp::none:
      return "none";
    case CoordOp::start:
      return "start";
    case CoordOp::yes:
      return "yes";
    case CoordOp::no:
      return "no";
    case CoordOp::ack:
      return "ack";
    case CoordOp::crash:
      return "crash";
    case CoordOp::recover:
      return "recover";
  }
  return "?";
}

/// The coordinator. A value type: `fire` returns the next one.
template <Bugs bugs = Bugs{}>
class Coordinator {
 public:
  using Fired = fsm::Fired<Coordinator, CoordAction>;

  /// The zero machine, which refuses everything.
  constexpr Coordinator() noexcept = default;
  /// A new coordinator, before the round starts.
  [[nodiscard]] static constexpr Coordinator make() noexcept { return in(CoordState::init); }
  /// A coordinator in `s` with `decision` logged, for tables.
  [[nodiscard]] static constexpr Coordinator in(CoordState s,
                                                Decision decision = Decision::none) noexcept {
    Coordinator c;
    c.state_ = s;
    c.decision_ = decision;
    return c;
  }

  [[nodiscard]] constexpr CoordState state() const noexcept { return state_; }
  [[nodiscard]] constexpr Decision logged() const noexcept { return decision_; }
  /// The mode, derived from the state.
  [[nodiscard]] constexpr Mode mode() const noexcept {
    switch (state_) {
      case CoordState::init:
      case CoordState::collecting:
      case CoordState::committing:
      case CoordState::aborting:
        return Mode::running;
      case CoordState::down:
        return Mode::down;
      case CoordState::committed:
      case CoordState::aborted:
        return Mode::finished;
      case CoordState::none:
        break;
    }
    return Mode::none;
  }
  /// Whether the coordinator has decided commit (logged or acting on it).
  [[nodiscard]] constexpr bool decided_commit() const noexcept {
    return decision_ == Decision::commit || state_ == CoordState::committing ||
           state_ == CoordState::committed;
  }

  [[nodiscard]] constexpr Fired fire(CoordEvent e) const noexcept {
    using fsm::Outcome;
    if (e.voter >= kVoters) return {*this, {}, Outcome::invalid};
    switch (state_) {
      case CoordState::init:
        return on_init(e);
      case CoordState::collecting:
        return on_collecting(e);
      case CoordState::committing:
      case CoordState::aborting:
        return on_deciding(e);
      case CoordState::committed:
      case CoordState::aborted:
        return on_finished(e);
      case CoordState::down:
        return on_down(e);
      case CoordState::none:
        break;
    }
    return {*this, {}, Outcome::invalid};
  }

  friend constexpr bool operator==(const Coordinator&, const Coordinator&) noexcept = default;

 private:
  static constexpr std::uint8_t kAll = (1U << kVoters) - 1U;

  [[nodiscard]] static constexpr std::uint8_t bit(std::uint8_t voter) noexcept {
    return static_cast<std::uint8_t>(1U << voter);
  }

  [[nodiscard]] constexpr Fired crash() const noexcept {
    Coordinator next = *this;  // the log survives; what was collected does not
    next.state_ = CoordState::down;
    next.votes_ = 0;
    next.acks_ = 0;
    return {next, {}, fsm::Outcome::moved};
  }

  [[nodiscard]] constexpr Fired on_init(CoordEvent e) const noexcept {
    using fsm::Outcome;
    switch (e.op) {
      case CoordOp::start:
        return {in(CoordState::collecting), CoordAction::prepare_all, Outcome::moved};
      case CoordOp::crash:
        return crash();
      case CoordOp::yes:
      case CoordOp::no:
      case CoordOp::ack:
      case CoordOp::recover:
        return {*this, {}, Outcome::rejected};
      case CoordOp::none:
        break;
    }
    return {*this, {}, Outcome::invalid};
  }

  [[nodiscard]] constexpr Fired on_collecting(CoordEvent e) const noexcept {
    using fsm::Outcome;
    switch (e.op) {
      case CoordOp::yes: {
        Coordinator next = *this;
        next.votes_ = static_cast<std::uint8_t>(votes_ | bit(e.voter));
        const bool decide = bugs.commit_on_first_yes || next.votes_ == kAll;
        if (!decide) return {next, {}, Outcome::moved};
        next.state_ = CoordState::committing;
        if (!bugs.log_after_ack) next.decision_ = Decision::commit;
        return {next, CoordAction::commit_all, Outcome::moved};
      }
      case CoordOp::no: {
        Coordinator next = *this;
        next.state_ = CoordState::aborting;
        next.decision_ = Decision::abort;
        return {next, CoordAction::abort_all, Outcome::moved};
      }
      case CoordOp::crash:
        return crash();
      case CoordOp::ack:
      case CoordOp::start:
      case CoordOp::recover:
        return {*this, {}, Outcome::rejected};
      case CoordOp::none:
        break;
    }
    return {*this, {}, Outcome::invalid};
  }

  [[nodiscard]] constexpr Fired on_deciding(CoordEvent e) const noexcept {
    using fsm::Outcome;
    switch (e.op) {
      case CoordOp::ack: {
        Coordinator next = *this;
        next.acks_ = static_cast<std::uint8_t>(acks_ | bit(e.voter));
        if (state_ == CoordState::committing) next.decision_ = Decision::commit;
        if (next.acks_ == kAll) {
          next.state_ =
              state_ == CoordState::committing ? CoordState::committed : CoordState::aborted;
        }
        return {next, {}, Outcome::moved};
      }
      case CoordOp::yes:
      case CoordOp::no:
        return {*this, {}, Outcome::ignored};  // a late vote
      case CoordOp::crash:
        return crash();
      case CoordOp::start:
      case CoordOp::recover:
        return {*this, {}, Outcome::rejected};
      case CoordOp::none:
        break;
    }
    return {*this, {}, Outcome::invalid};
  }

  [[nodiscard]] constexpr Fired on_finished(CoordEvent e) const noexcept {
    using fsm::Outcome;
    switch (e.op) {
      case CoordOp::ack:
      case CoordOp::yes:
      case CoordOp::no:
        return {*this, {}, Outcome::ignored};  // late or resent
      case CoordOp::crash:
      case CoordOp::start:
      case CoordOp::recover:
        return {*this, {}, Outcome::rejected};
      case CoordOp::none:
        break;
    }
    return {*this, {}, Outcome::invalid};
  }

  [[nodiscard]] constexpr Fired on_down(CoordEvent e) const noexcept {
    using fsm::Outcome;
    switch (e.op) {
      case CoordOp::recover: {
        Coordinator next = *this;
        if (decision_ == Decision::commit) {
          next.state_ = CoordState::committing;
          return {next, CoordAction::commit_all, Outcome::moved};
        }
        next.state_ = CoordState::aborting;  // logged abort, or presumed
        next.decision_ = Decision::abort;
        return {next, CoordAction::abort_all, Outcome::moved};
      }
      case CoordOp::yes:
      case CoordOp::no:
      case CoordOp::ack:
        return {*this, {}, Outcome::ignored};  // lost while down
      case CoordOp::crash:
      case CoordOp::start:
        return {*this, {}, Outcome::rejected};
      case CoordOp::none:
        break;
    }
    return {*this, {}, Outcome::invalid};
  }

  CoordState state_ = CoordState::none;
  Decision decision_ = Decision::none;
  std::uint8_t votes_ = 0;  // bit per voter that voted yes
  std::uint8_t acks_ = 0;   // bit per voter that acknowledged
};

static_assert(fsm::Machine<Coordinator<>, CoordEvent>);
static_assert(fsm::ByteHashable<Coordinator<>>);

}  // namespace twophase

#endif  // MERILO_EXAMPLES_TWOPHASE_COORDINATOR_HPP
