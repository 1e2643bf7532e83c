// Rule: a machine is a value `==` compares (fsm::Machine requires
// std::regular), so a checker can tell whether an event changed it. A
// machine without == is refused where its state-event table is built for
// the totality check. With MERILO_EXPECT_OK it has a defaulted == and the
// code must compile.
#include <merilo/fsm/fsm.hpp>
#include <merilo/fsm/total.hpp>

#include <cstdint>

namespace fsm = merilo::fsm;

enum class Event : std::uint8_t { none, ping };

class Echo {
 public:
  [[nodiscard]] constexpr fsm::Fired<Echo> fire(Event e) const noexcept {
    return {*this, {}, e == Event::ping ? fsm::Outcome::ignored : fsm::Outcome::invalid};
  }
#ifdef MERILO_EXPECT_OK
  friend constexpr bool operator==(const Echo&, const Echo&) noexcept = default;
#endif

 private:
  std::uint64_t pings_ = 0;
};

fsm::FireTable<Echo, Event> table() { return {{Echo{}}, {Event::none, Event::ping}}; }
