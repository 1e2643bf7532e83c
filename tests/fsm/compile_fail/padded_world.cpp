// A world with padding bytes cannot be fingerprinted by its bytes: explore()
// must refuse the system at compile time, saying why. With MERILO_EXPECT_OK
// the padding is explicit and the same code must compile.
#include <merilo/explore/explore.hpp>

#include <array>
#include <cstdint>
#include <string>

namespace ex = merilo::explore;

struct World {
  std::uint8_t small;
#ifdef MERILO_EXPECT_OK
  std::uint8_t pad[7];
#endif
  std::uint64_t big;
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

ex::ExploreResult run(Sys& s) { return ex::explore(s, {.max_states = 1}); }
