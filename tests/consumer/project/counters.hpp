// counters.hpp — the consumer's system: two counters that each count to 2.
// Explored by main.cpp, fuzzed by fuzz.cpp.
#ifndef MERILO_CONSUMER_COUNTERS_HPP
#define MERILO_CONSUMER_COUNTERS_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include <merilo/explore/system.hpp>

struct Counters {
  struct World {
    std::array<std::uint8_t, 2> v{};
  } w;
  void reset() { w = {}; }
  std::size_t kinds() const { return 2; }
  bool enabled(merilo::explore::Kind k) const { return w.v[k] < 2; }
  merilo::explore::Status apply(merilo::explore::Kind k) {
    ++w.v[k];
    return {};
  }
  const World& world() const { return w; }
  std::string tuple() const { return "c" + std::to_string(w.v[0]); }
  bool settled() const { return true; }
  std::string describe(merilo::explore::Kind k) const { return "inc " + std::to_string(k); }
  std::array<merilo::explore::Invariant<Counters>, 0> invariants() const { return {}; }
};

#endif  // MERILO_CONSUMER_COUNTERS_HPP
