// docs/examples/quickstart.cpp
#include <merilo/gtest.hpp>

#include <array>
#include <cstdint>
#include <string>

namespace fsm = merilo::fsm;
namespace ex = merilo::explore;

// 1. A machine: a value type whose only way to change is fire().
enum class Event : std::uint8_t { none, open, close };
struct Door {
  bool is_open = false;
  [[nodiscard]] fsm::Fired<Door> fire(Event e) const {
    if (e == Event::open && !is_open) return {Door{true}, {}, fsm::Outcome::moved};
    if (e == Event::close && is_open) return {Door{false}, {}, fsm::Outcome::moved};
    return {*this, {}, e == Event::none ? fsm::Outcome::invalid : fsm::Outcome::rejected};
  }
};

// 2. An adapter: every step the world can take is a numbered kind.
struct DoorSystem {
  struct World {
    Door door;
    std::uint8_t opened = 0;
  } w;
  void reset() { w = {}; }
  std::size_t kinds() const { return 2; }  // 0 = open, 1 = close
  bool enabled(ex::Kind k) const { return k == 1 || w.opened < 3; }
  ex::Status apply(ex::Kind k) {
    auto [next, actions, outcome] = w.door.fire(k == 0 ? Event::open : Event::close);
    if (outcome == fsm::Outcome::moved && k == 0) ++w.opened;
    w.door = next;
    return {};
  }
  const World& world() const { return w; }
  std::string tuple() const { return w.door.is_open ? "door:open" : "door:closed"; }
  bool settled() const { return false; }
  std::string describe(ex::Kind k) const { return k == 0 ? "open" : "close"; }
  // 3. The invariants: each a name and a predicate, listed once.
  std::array<ex::Invariant<DoorSystem>, 1> invariants() const {
    return {{{"at most 3 opens", [](const DoorSystem& s) { return s.w.opened <= 3; }}}};
  }
};

// 4. A test: every reachable world, checked.
TEST(Door, NeverOpensMoreThanThreeTimes) {
  DoorSystem sys;
  auto result = merilo::testing::explore(sys, {.max_states = 1000, .require_complete = true});
  EXPECT_EQ(result.states, 7u);
}
