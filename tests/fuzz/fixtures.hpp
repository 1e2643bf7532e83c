// fixtures.hpp — small systems with behaviour chosen by the test, for the
// fuzz runner's tests.
#ifndef MERILO_TESTS_FUZZ_FIXTURES_HPP
#define MERILO_TESTS_FUZZ_FIXTURES_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <merilo/explore/system.hpp>
#include <merilo/fsm/world.hpp>
#include <merilo/fuzz/run.hpp>

namespace fixtures {

namespace ex = merilo::explore;

/// Four kinds; records every kind it takes. Which kinds are enabled, when
/// it settles and what breaks are set by the test.
class Recorder {
 public:
  static constexpr std::size_t kMax = 32;
  struct World {
    std::uint8_t steps = 0;
    std::array<std::uint8_t, kMax> taken{};
  };

  /// Kinds never enabled (bit k for kind k).
  std::uint32_t disabled = 0;
  /// Settled once this many steps were taken; nothing is enabled then.
  std::size_t stop_at = kMax;
  /// Settled (but still enabled) from this many steps on.
  std::size_t settled_from = kMax;
  /// When not 0xFF: taking this kind breaks the invariant.
  std::uint8_t poison = 0xFF;
  /// When not 0xFF: applying this kind fails / changes mode / throws.
  std::uint8_t failing = 0xFF;
  std::uint8_t mode_changing = 0xFF;
  std::uint8_t throwing = 0xFF;
  /// The initial world is already broken.
  bool broken_initially = false;
  /// apply() calls merilo::fuzz::run on itself.
  bool reenters = false;
  /// Never settles: stopping with nothing enabled is a deadlock.
  bool never_settles = false;
  /// When set, counts resets, and the poison kind breaks the invariant only
  /// after an odd number of them: state outside the world, so a run and its
  /// replay from reset disagree, as in a nondeterministic system.
  std::size_t* resets = nullptr;

  void reset() {
    world_ = World{};
    if (resets != nullptr) ++*resets;
  }
  [[nodiscard]] std::size_t kinds() const { return 4; }
  [[nodiscard]] bool enabled(ex::Kind k) const {
    ++enabled_calls;
    return world_.steps < stop_at && ((disabled >> k) & 1U) == 0;
  }
  ex::Status apply(ex::Kind k) {
    if (k == throwing) throw std::runtime_error("boom");
    if (k == failing) return ex::Status::error("refused");
    if (k == mode_changing) return ex::Status::mode_change("normal -> recovering");
    if (reenters) {
      const std::uint8_t bytes[] = {0};
      inner_ = merilo::fuzz::run(*this, bytes, 3);
    }
    world_.taken[world_.steps] = static_cast<std::uint8_t>(k);
    ++world_.steps;
    return {};
  }
  [[nodiscard]] const World& world() const { return world_; }
  [[nodiscard]] std::string tuple() const { return "r:" + std::to_string(world_.steps % 3); }
  [[nodiscard]] bool settled() const {
    if (never_settles) return false;
    return world_.steps >= stop_at || world_.steps >= settled_from;
  }
  [[nodiscard]] std::string describe(ex::Kind k) const { return "kind " + std::to_string(k); }
  [[nodiscard]] std::array<ex::Invariant<Recorder>, 1> invariants() const {
    return {{{"sound", [](const Recorder& r) -> ex::InvariantCheck {
                if (r.broken_initially) return ex::InvariantCheck::fails("broken from the start");
                if (r.resets != nullptr && *r.resets % 2 == 0) return true;
                for (std::size_t i = 0; i < r.world_.steps; ++i) {
                  if (r.world_.taken[i] == r.poison)
                    return ex::InvariantCheck::fails("took the poison kind");
                }
                return true;
              }}}};
  }

  /// How many times enabled() was asked (the runner's cost per step).
  mutable std::size_t enabled_calls = 0;
  /// What the re-entrant call returned.
  merilo::fuzz::Run inner_;

 private:
  World world_{};
};

static_assert(merilo::fsm::ByteHashable<Recorder::World>);

}  // namespace fixtures

#endif  // MERILO_TESTS_FUZZ_FIXTURES_HPP
