// docs/examples/fuzz_pin.cpp
// Pinning what a fuzz target found: paste the replay test it printed, then
// make it two-sided — the buggy system still breaks the rule, the fixed one
// does not — so it guards the fix for good.
#include <array>
#include <cstdint>
#include <string>

#include <merilo/fuzz/input.hpp>
#include <merilo/gtest.hpp>

namespace {

namespace ex = merilo::explore;

/// A counter that must stay below 3: an increment at 2 is ignored, except
/// that `kBuggy` lets it in.
template <bool kBuggy>
class Counter {
 public:
  struct World {
    std::uint8_t value = 0;
  };
  void reset() { w_ = World{}; }
  [[nodiscard]] std::size_t kinds() const { return 2; }  // 0 inc, 1 reset
  [[nodiscard]] bool enabled(ex::Kind) const { return true; }
  ex::Status apply(ex::Kind k) {
    if (k == 1)
      w_.value = 0;
    else if (kBuggy || w_.value < 2)
      ++w_.value;
    return {};
  }
  [[nodiscard]] const World& world() const { return w_; }
  [[nodiscard]] std::string tuple() const { return "counter:" + std::to_string(w_.value); }
  [[nodiscard]] bool settled() const { return false; }
  [[nodiscard]] std::string describe(ex::Kind k) const { return k == 0 ? "inc" : "reset"; }
  [[nodiscard]] std::array<ex::Invariant<Counter>, 1> invariants() const {
    return {{{"stays below 3", [](const Counter& c) { return c.w_.value < 3; }}}};
  }

 private:
  World w_{};
};

// The fuzz target printed `Trace{0, 0, 0}` in its replay test. Pinned:
TEST(Replay, CounterStaysBelowThree) {
  Counter<true> buggy;
  merilo::testing::expect_replay_finds(buggy, {0, 0, 0}, ex::ViolationKind::invariant);
  Counter<false> fixed;  // the same kinds still fit: the third inc is ignored
  merilo::testing::expect_replay_ok(fixed, {0, 0, 0});
}

// A trace also becomes a corpus file: an all-zero mask, then its kinds.
TEST(Replay, ATraceEncodesAsAFuzzInput) {
  Counter<true> sys;
  const merilo::fuzz::FuzzBytes b = merilo::fuzz::to_fuzz_bytes(sys, {0, 0, 0});
  EXPECT_EQ(b.bytes, (std::vector<std::uint8_t>{0x00, 0, 0, 0}));
}

}  // namespace
