// A world holding a float: +0.0 and -0.0 are equal with different bytes, so
// its bytes are not its value. replay() — like explore() and the fuzz
// runner — must refuse it at compile time with merilo's own message (g++
// used to report only an unsatisfied concept). With MERILO_EXPECT_OK the
// value is stored as an integer and the same code must compile.
#include <merilo/explore/replay.hpp>

#include <array>
#include <cstdint>
#include <string>

namespace ex = merilo::explore;

struct World {
#ifdef MERILO_EXPECT_OK
  std::int64_t millis;
#else
  double seconds;
#endif
};

struct Sys {
  void reset() {}
  std::size_t kinds() const { return 1; }
  bool enabled(ex::Kind) const { return false; }
  ex::Status apply(ex::Kind) { return {}; }
  const World& world() const { return w; }
  std::array<ex::Invariant<Sys>, 0> invariants() const { return {}; }
  std::string tuple() const { return {}; }
  bool settled() const { return true; }
  std::string describe(ex::Kind) const { return {}; }
  World w{};
};

ex::Replayed run(Sys& s) { return ex::replay(s, {}); }
