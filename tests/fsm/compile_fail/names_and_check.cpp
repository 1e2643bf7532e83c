// The old adapter interface — invariant names in invariants() and a separate
// check() — let a violation carry a name the list did not have. It must not
// compile, and the message must point at the new interface. With
// MERILO_EXPECT_OK the invariant is a named predicate and the code compiles.
#include <merilo/explore/explore.hpp>

#include <array>
#include <cstdint>
#include <string>

namespace ex = merilo::explore;

struct World {
  std::uint8_t x;
};

struct Sys {
  void reset() {}
  std::size_t kinds() const { return 1; }
  bool enabled(ex::Kind) const { return false; }
  ex::Status apply(ex::Kind) { return {}; }
  const World& world() const { return w; }
#ifdef MERILO_EXPECT_OK
  std::array<ex::Invariant<Sys>, 1> invariants() const {
    return {{{"small", [](const Sys& s) { return s.w.x < 3; }}}};
  }
#else
  std::array<const char*, 1> invariants() const { return {"small"}; }
#endif
  std::string tuple() const { return {}; }
  bool settled() const { return true; }
  std::string describe(ex::Kind) const { return {}; }
  World w{};
};

ex::ExploreResult run(Sys& s) { return ex::explore(s, {.max_states = 1}); }
