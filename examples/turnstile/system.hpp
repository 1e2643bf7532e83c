// system.hpp — the turnstile in its environment: one person with a few coins.
//
// Kinds: 0 = insert a coin (while the person has one), 1 = push. The world is
// the machine plus three small counters; the search finds 7 reachable worlds,
// the farthest 4 steps away. The invariant: no one passes without paying.
//
// `Bug::free_pass` seeds a bug for the docs and tests: the adapter lets a
// push through a locked turnstile when its fire is rejected.
#ifndef MERILO_EXAMPLES_TURNSTILE_SYSTEM_HPP
#define MERILO_EXAMPLES_TURNSTILE_SYSTEM_HPP

#include <array>
#include <cstdint>
#include <string>

#include <merilo/explore/system.hpp>

#include <turnstile/turnstile.hpp>

namespace turnstile {

/// Seeded bugs, switched at compile time.
enum class Bug : std::uint8_t { none, free_pass };

/// The adapter merilo explores.
template <Bug bug = Bug::none>
class System {
 public:
  static constexpr std::uint8_t kCoins = 2;
  enum Kind : merilo::explore::Kind { kCoin, kPush, kKinds };

  /// Everything that makes one world: the machine and the counters.
  struct World {
    Turnstile machine;
    std::uint8_t coins_left = kCoins;
    std::uint8_t paid = 0;
    std::uint8_t passed = 0;
  };

  void reset() { world_ = World{Turnstile::make(), kCoins, 0, 0}; }
  [[nodiscard]] std::size_t kinds() const { return kKinds; }
  [[nodiscard]] bool enabled(merilo::explore::Kind k) const {
    return k == kPush || world_.coins_left > 0;
  }

  merilo::explore::Status apply(merilo::explore::Kind k) {
    const Event e = k == kCoin ? Event::coin : Event::push;
    auto [next, actions, outcome] = world_.machine.fire(e);
    if (auto refusal = merilo::fsm::err(outcome);
        refusal && outcome != merilo::fsm::Outcome::rejected) {
      return merilo::explore::Status::error(std::string(name(e)) + " was " +
                                            std::string(refusal.what()));
    }
    if (e == Event::coin) {
      --world_.coins_left;
      ++world_.paid;
    } else if (outcome == merilo::fsm::Outcome::moved ||
               (bug == Bug::free_pass && outcome == merilo::fsm::Outcome::rejected)) {
      ++world_.passed;
    }
    world_.machine = next;
    return {};
  }

  [[nodiscard]] const World& world() const { return world_; }
  [[nodiscard]] std::string tuple() const {
    return "turnstile:" + std::string(name(world_.machine.state()));
  }
  /// Never settled: a push is always possible, so nothing here deadlocks.
  [[nodiscard]] bool settled() const { return false; }
  [[nodiscard]] std::string describe(merilo::explore::Kind k) const {
    return k == kCoin ? "coin" : "push";
  }
  /// The invariants, each a name and a predicate, listed once.
  [[nodiscard]] std::array<merilo::explore::Invariant<System>, 1> invariants() const {
    return {{{"no one passes without paying", [](const System& s) { return s.paid_for_all(); }}}};
  }
  void restore(const World& w) { world_ = w; }

 private:
  [[nodiscard]] merilo::explore::InvariantCheck paid_for_all() const {
    if (world_.passed <= world_.paid) return true;
    return merilo::explore::InvariantCheck::fails(std::to_string(world_.passed) + " passed, " +
                                                  std::to_string(world_.paid) + " paid");
  }

  World world_{};
};

}  // namespace turnstile

#endif  // MERILO_EXAMPLES_TURNSTILE_SYSTEM_HPP
