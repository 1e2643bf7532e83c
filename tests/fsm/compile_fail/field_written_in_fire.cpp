// Rule: `fire` does not change the machine it is called on; it returns the
// next one. `fire` is a const member function, so assigning a field inside
// it does not compile. With MERILO_EXPECT_OK `fire` builds the next machine
// and the code must compile.
#include <merilo/fsm/fsm.hpp>

#include <cstdint>

namespace fsm = merilo::fsm;

enum class State : std::uint8_t { none, off, on };
enum class Event : std::uint8_t { none, switch_on };

class Lamp {
 public:
  [[nodiscard]] constexpr fsm::Fired<Lamp> fire(Event e) const noexcept {
    if (e != Event::switch_on || state_ == State::none) return {*this, {}, fsm::Outcome::invalid};
#ifdef MERILO_EXPECT_OK
    Lamp next = *this;
    next.state_ = State::on;
    return {next, {}, fsm::Outcome::moved};
#else
    state_ = State::on;
    return {*this, {}, fsm::Outcome::moved};
#endif
  }
  friend constexpr bool operator==(const Lamp&, const Lamp&) noexcept = default;

 private:
  State state_ = State::off;
};
