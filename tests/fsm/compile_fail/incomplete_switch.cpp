// Rule: every switch on a machine's enum names every enumerator, so a state
// or event added later cannot slip through a switch unhandled. The build's
// -Werror=switch-enum refuses this `fire`, which forgets `State::open`.
// With MERILO_EXPECT_OK the case is there and the same code must compile.
#include <merilo/fsm/fsm.hpp>

#include <cstdint>

namespace fsm = merilo::fsm;

enum class State : std::uint8_t { none, closed, open };
enum class Event : std::uint8_t { none, toggle };

class Door {
 public:
  [[nodiscard]] constexpr fsm::Fired<Door> fire(Event e) const noexcept {
    if (e != Event::toggle) return {*this, {}, fsm::Outcome::invalid};
    switch (state_) {
      case State::closed:
        return {Door{State::open}, {}, fsm::Outcome::moved};
#ifdef MERILO_EXPECT_OK
      case State::open:
        return {Door{State::closed}, {}, fsm::Outcome::moved};
#endif
      case State::none:
        break;
    }
    return {*this, {}, fsm::Outcome::invalid};
  }
  friend constexpr bool operator==(const Door&, const Door&) noexcept = default;

  constexpr Door() noexcept = default;

 private:
  constexpr explicit Door(State s) noexcept : state_(s) {}
  State state_ = State::none;
};

static_assert(fsm::Machine<Door, Event>);
