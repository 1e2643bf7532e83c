// Rule: a world is compared and hashed by value. A std::string holds a
// pointer to its characters, so its bytes are not its value: a world with
// one cannot be fingerprinted by its bytes, and explore() refuses it at
// compile time, saying why. With MERILO_EXPECT_OK the world feeds its
// identifying bytes itself (fsm::FeedsBytes) and the code must compile.
#include <merilo/explore/explore.hpp>
#include <merilo/fsm/world.hpp>

#include <array>
#include <cstdint>
#include <string>

namespace ex = merilo::explore;

struct World {
  std::string owner;
  std::uint64_t version = 0;
#ifdef MERILO_EXPECT_OK
  template <class Sink>
  void feed(Sink& sink) const {
    const std::uint64_t size = owner.size();
    sink(&size, sizeof size);
    sink(owner.data(), owner.size());
    sink(&version, sizeof version);
  }
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

ex::ExploreResult run(Sys& s) { return ex::explore(s, {.max_states = 1}); }
