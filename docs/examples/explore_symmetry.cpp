// docs/examples/explore_symmetry.cpp
// Three interchangeable clients share a lock. canonical() sorts the
// clients, so the explorer stores one world per renaming of them;
// sometimes() makes sure some world has a holder, so "at most one holder"
// is really put to the test.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include <merilo/explore/explore.hpp>

namespace ex = merilo::explore;

class Lock {
 public:
  enum : std::uint8_t { kIdle, kWaiting, kHolding };
  struct World {
    std::array<std::uint8_t, 3> client{};  // each kIdle, kWaiting or kHolding
  };
  void reset() { w_ = {}; }
  [[nodiscard]] std::size_t kinds() const { return 3; }  // kind c: client c moves on
  [[nodiscard]] bool enabled(ex::Kind c) const {
    return w_.client[c] != kWaiting || holders() == 0;
  }
  ex::Status apply(ex::Kind c) {
    w_.client[c] = static_cast<std::uint8_t>((w_.client[c] + 1) % 3);
    return {};
  }
  [[nodiscard]] const World& world() const { return w_; }
  void restore(const World& w) { w_ = w; }
  // One world per renaming: the clients' states in ascending order.
  [[nodiscard]] World canonical(const World& w) const {
    World c = w;
    std::sort(c.client.begin(), c.client.end());
    return c;
  }
  [[nodiscard]] std::array<ex::Invariant<Lock>, 1> invariants() const {
    return {{{"at most one holder", [](const Lock& s) { return s.holders() <= 1; }}}};
  }
  [[nodiscard]] std::array<ex::Sometimes<Lock>, 1> sometimes() const {
    return {{{"a client holds the lock", [](const Lock& s) { return s.holders() == 1; }}}};
  }
  [[nodiscard]] std::string tuple() const { return "holders=" + std::to_string(holders()); }
  [[nodiscard]] bool settled() const { return true; }
  [[nodiscard]] std::string describe(ex::Kind c) const {
    return "client " + std::to_string(c) + " moves on";
  }

 private:
  [[nodiscard]] long holders() const {
    return std::count(w_.client.begin(), w_.client.end(), kHolding);
  }
  World w_{};
};

TEST(Lock, StoresOneWorldPerRenamingOfTheClientsAndReachesAHolder) {
  Lock sys;
  const ex::ExploreResult r = ex::explore(sys, {.max_states = 100, .require_complete = true});
  EXPECT_TRUE(r.ok()) << r.summary();
  EXPECT_EQ(r.states, 7U);  // 20 worlds, 7 up to renaming
  EXPECT_TRUE(r.sometimes[0].reached);
  EXPECT_EQ(r.sometimes[0].depth, 2U);  // wait, then take the lock
}
