// The twin of narrow_number.hpp: the same machine counting in a 64-bit
// number, which cmake/rules_check.py must accept. Read as text only.
#include <array>
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
  std::uint64_t ticks_ = 0;
  std::uint8_t slot_ = 0;  // assigned, never counted: not a number
  std::array<std::uint8_t, 7> pad_{};
};
