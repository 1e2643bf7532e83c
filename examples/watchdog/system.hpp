// system.hpp — the watchdog, its holder's timers and a user who arms, kicks
// and disarms it.
//
// The holder starts one timer per generation and cancels the running one on
// kick and disarm. A cancelled timer is not gone: until the cancel takes
// effect it can still expire, late. The adapter keeps every timer that may
// still expire in a sorted fixed array (live or cancelled, with its
// generation), and any of them may expire next; a cancelled one may also
// just disappear. The watchdog may start six timers in all.
//
// Kinds, in this order (the fuzzer's drain takes the lowest enabled one, so
// it lets the oldest timer expire first and never kicks): timer slot i
// expires (0..5), cancelled timer slot i disappears (6..11), the user arms
// (12), disarms (13), kicks (14).
//
// Invariants: "only the current timer raises the alarm" and "a timer runs
// exactly while armed". The fixed watchdog has 640 reachable worlds, the
// farthest 13 steps away; `Bug::narrow_generation` raises the alarm on a
// stale timer after four kicks, in 6 steps.
#ifndef MERILO_EXAMPLES_WATCHDOG_SYSTEM_HPP
#define MERILO_EXAMPLES_WATCHDOG_SYSTEM_HPP

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include <merilo/explore/system.hpp>
#include <merilo/fsm/world.hpp>

#include <watchdog/watchdog.hpp>

namespace watchdog {

namespace ex = merilo::explore;

/// A timer that may still expire; generation 0 marks an empty slot.
struct Timer {
  std::uint64_t generation = 0;
  std::uint8_t cancelled = 0;
  std::array<std::uint8_t, 7> pad{};
  friend constexpr bool operator==(const Timer&, const Timer&) noexcept = default;
};

/// The adapter merilo explores and fuzzes.
template <Bug bug = Bug::none>
class System {
 public:
  static constexpr std::uint64_t kGenerations = 6;
  static constexpr std::size_t kSlots = 6;
  static constexpr ex::Kind kExpire = 0;
  static constexpr ex::Kind kForget = kExpire + kSlots;
  static constexpr ex::Kind kArm = kForget + kSlots;
  static constexpr ex::Kind kDisarm = kArm + 1;
  static constexpr ex::Kind kKick = kDisarm + 1;
  static constexpr ex::Kind kKinds = kKick + 1;

  struct World {
    Watchdog<bug> dog;
    std::array<Timer, kSlots> timers;    // sorted by generation, empty slots last
    std::uint64_t alarm_generation = 0;  // the timer whose expiry raised the alarm
  };
  static_assert(merilo::fsm::ByteHashable<World>);

  void reset() { w_ = World{Watchdog<bug>::make(kGenerations), {}, 0}; }
  [[nodiscard]] std::size_t kinds() const { return kKinds; }

  [[nodiscard]] bool enabled(ex::Kind k) const {
    const State s = w_.dog.state();
    if (k < kForget) return w_.timers[k - kExpire].generation != 0;
    if (k < kArm) return w_.timers[k - kForget].cancelled != 0;
    if (k == kArm) return (s == State::idle || s == State::expired) && w_.dog.has_generations();
    if (k == kDisarm) return s == State::armed;
    return s == State::armed && w_.dog.has_generations();
  }

  ex::Status apply(ex::Kind k) {
    if (k < kForget) {
      const Timer t = take(k - kExpire);
      return fire(Event{Op::timeout, t.generation});
    }
    if (k < kArm) {
      take(k - kForget);
      return {};
    }
    if (k == kArm) return fire(Event{Op::arm, 0});
    if (k == kDisarm) return fire(Event{Op::disarm, 0});
    return fire(Event{Op::kick, 0});
  }

  [[nodiscard]] const World& world() const { return w_; }
  void restore(const World& w) { w_ = w; }

  /// The invariants, each a name and a predicate, listed once.
  [[nodiscard]] std::array<ex::Invariant<System>, 2> invariants() const {
    return {{{"only the current timer raises the alarm",
              [](const System& s) { return s.alarm_from_current_timer(); }},
             {"a timer runs exactly while armed",
              [](const System& s) { return s.one_timer_while_armed(); }}}};
  }

  [[nodiscard]] std::string tuple() const {
    return "watchdog:" + std::string(name(w_.dog.state()));
  }

  /// Stopped by design: no timer left to expire and none can start.
  [[nodiscard]] bool settled() const {
    return w_.timers[0].generation == 0 && w_.dog.state() != State::armed &&
           !w_.dog.has_generations();
  }

  [[nodiscard]] std::string describe(ex::Kind k) const {
    if (k < kArm) {
      const Timer& t = w_.timers[(k - kExpire) % kSlots];
      const std::string which = std::string(t.cancelled != 0 ? "cancelled " : "") + "timer gen " +
                                std::to_string(t.generation);
      return which + (k < kForget ? " expires" : " disappears");
    }
    if (k == kArm) return "user arms";
    if (k == kDisarm) return "user disarms";
    return "user kicks";
  }

 private:
  [[nodiscard]] ex::InvariantCheck alarm_from_current_timer() const {
    if (w_.dog.state() != State::expired || w_.alarm_generation == w_.dog.generation()) {
      return true;
    }
    return ex::InvariantCheck::fails(
        "the timer of generation " + std::to_string(w_.alarm_generation) +
        " raised it at generation " + std::to_string(w_.dog.generation()));
  }

  [[nodiscard]] ex::InvariantCheck one_timer_while_armed() const {
    const State s = w_.dog.state();
    const auto live = std::count_if(w_.timers.begin(), w_.timers.end(), [](const Timer& t) {
      return t.generation != 0 && t.cancelled == 0;
    });
    if (live == (s == State::armed ? 1 : 0)) return true;
    return ex::InvariantCheck::fails(std::to_string(live) + " live timers while " +
                                     std::string(name(s)));
  }

  // Fires `e` as the holder does, performing the actions on the timers.
  ex::Status fire(Event e) {
    auto [next, actions, outcome] = w_.dog.fire(e);
    if (auto refusal = merilo::fsm::err(outcome)) {
      return ex::Status::error(std::string(name(e.op)) + " in " +
                               std::string(name(w_.dog.state())) + " was " +
                               std::string(refusal.what()));
    }
    w_.dog = next;
    ex::Status done;
    actions.for_each([&](Action a) {
      switch (a) {
        case Action::cancel_timer:
          for (Timer& t : w_.timers) {
            if (t.generation != 0) t.cancelled = 1;
          }
          return;
        case Action::start_timer:
          done = start(w_.dog.generation());
          return;
        case Action::alarm:
          w_.alarm_generation = e.generation;
          return;
      }
    });
    return done;
  }

  ex::Status start(std::uint64_t generation) {
    if (w_.timers[kSlots - 1].generation != 0) {
      return ex::Status::error("no room for another timer (" + std::to_string(kSlots) +
                               " slots); raise kSlots");
    }
    w_.timers[kSlots - 1] = Timer{generation, 0, {}};
    normalize();
    return {};
  }

  Timer take(std::size_t slot) {
    const Timer t = w_.timers[slot];
    w_.timers[slot] = Timer{};
    normalize();
    return t;
  }

  void normalize() {
    std::sort(w_.timers.begin(), w_.timers.end(), [](const Timer& a, const Timer& b) {
      if (a.generation == 0) return false;
      if (b.generation == 0) return true;
      return a.generation < b.generation;
    });
  }

  World w_{};
};

}  // namespace watchdog

#endif  // MERILO_EXAMPLES_WATCHDOG_SYSTEM_HPP
