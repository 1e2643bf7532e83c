// A machine that counts in a 32-bit number: cmake/rules_check.py must refuse
// it (tests/fsm/CMakeLists.txt). narrow_number_fixed.hpp is its twin that
// must pass. Read as text by the checker only; never compiled.
#include <cstdint>

enum class Event : std::uint8_t { none, tick };

class Ticker {
 public:
  Ticker fire(Event e) const {
    Ticker next = *this;
    if (e == Event::tick) ++next.ticks_;
    return next;
  }

 private:
  std::uint32_t ticks_ = 0;
  std::uint8_t slot_ = 0;  // assigned, never counted: not a number
};
