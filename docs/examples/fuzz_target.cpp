// docs/examples/fuzz_target.cpp
// A fuzz target in one macro, for a small system: a tank that is filled
// and drained one unit at a time and must never overflow. Built with
// -fsanitize=fuzzer this file is a libFuzzer target; built with GoogleTest
// (as docs/ does) the TEST below feeds it inputs directly.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <merilo/explore/system.hpp>
#include <merilo/fuzz/run.hpp>
#include <merilo/fuzz/target.hpp>

namespace tank {

namespace ex = merilo::explore;

/// Kinds: 0 fill, 1 drain. The valve is meant to refuse a fill at capacity;
/// `kLeakyValve` forgets to once the tank has been drained twice.
template <bool kLeakyValve>
class System {
 public:
  static constexpr std::uint8_t kCapacity = 4;
  struct World {
    std::uint8_t level = 0;
    std::uint8_t drains = 0;
  };

  void reset() { w_ = World{}; }
  [[nodiscard]] std::size_t kinds() const { return 2; }
  [[nodiscard]] bool enabled(ex::Kind k) const {
    if (k == 1) return w_.level > 0;
    return w_.level < kCapacity || (kLeakyValve && w_.drains >= 2);
  }
  ex::Status apply(ex::Kind k) {
    if (k == 0) {
      ++w_.level;
    } else {
      --w_.level;
      if (w_.drains < 2) ++w_.drains;
    }
    return {};
  }
  [[nodiscard]] const World& world() const { return w_; }
  [[nodiscard]] std::string tuple() const { return w_.level == 0 ? "tank:empty" : "tank:filled"; }
  [[nodiscard]] bool settled() const { return false; }
  [[nodiscard]] std::string describe(ex::Kind k) const { return k == 0 ? "fill" : "drain"; }
  [[nodiscard]] std::array<ex::Invariant<System>, 1> invariants() const {
    return {{{"never overflows", [](const System& s) { return s.within_capacity(); }}}};
  }

 private:
  [[nodiscard]] ex::InvariantCheck within_capacity() const {
    if (w_.level <= kCapacity) return true;
    return ex::InvariantCheck::fails("level " + std::to_string(w_.level));
  }

  World w_{};
};

}  // namespace tank

using LeakyTank = tank::System<true>;

// The whole fuzz target: at most 32 steps per input; `-merilo_seed=DIR`
// writes the shortest schedule to each tuple a 100-world search reaches.
MERILO_FUZZ_TARGET(LeakyTank, .name = "LeakyTank", .max_depth = 32,
                   .explore = {.max_states = 100, .quiet = true});

TEST(FuzzTargetDoc, AnInputIsAMaskThenChoices) {
  // One mask byte (2 kinds), then fill x4, drain x2, fill x3: the leak.
  const std::vector<std::uint8_t> input = {0x00, 0, 0, 0, 0, 1, 1, 0, 0, 0};
  LeakyTank sys;
  const merilo::fuzz::Run r = merilo::fuzz::run(sys, input, 32);
  EXPECT_EQ(r.violation.invariant, "never overflows");
  EXPECT_EQ(r.violation.trace, (merilo::explore::Trace{0, 0, 0, 0, 1, 1, 0, 0, 0}));
}

TEST(FuzzTargetDoc, TheDrainGoesOnWhereTheChoicesStop) {
  // Choice 1 (drain) is not enabled in an empty tank, so it picks among
  // {fill}: 1 % 1 = 0, fill. The second 1 drains. Then the drain takes the
  // lowest enabled kind — fill up to capacity, one drain when nothing else
  // is enabled — until the leak overflows: a short input reaches deep.
  const std::vector<std::uint8_t> input = {0x00, 1, 1};
  LeakyTank sys;
  const merilo::fuzz::Run r = merilo::fuzz::run(sys, input, 32);
  EXPECT_EQ(r.input_steps, 2u);
  EXPECT_EQ(r.violation.trace, (merilo::explore::Trace{0, 1, 0, 0, 0, 0, 1, 0, 0}));
}

TEST(FuzzTargetDoc, TheTargetRunsCleanInputsQuietly) {
  // The mask keeps fill out whenever drain is enabled: the tank never
  // holds more than one unit, for all 32 steps.
  const std::vector<std::uint8_t> input = {0x01};
  EXPECT_EQ(LLVMFuzzerTestOneInput(input.data(), input.size()), 0);
}
