// Explores two counters 0..2 and checks the closed-form answer: 9 worlds.
#include <merilo/explore/explore.hpp>
#include <merilo/explore/replay.hpp>

#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace ex = merilo::explore;

struct Counters {
  struct World {
    std::array<std::uint8_t, 2> v{};
  } w;
  void reset() { w = {}; }
  std::size_t kinds() const { return 2; }
  bool enabled(ex::Kind k) const { return w.v[k] < 2; }
  ex::Status apply(ex::Kind k) {
    ++w.v[k];
    return {};
  }
  const World& world() const { return w; }
  std::string tuple() const { return "c"; }
  bool settled() const { return true; }
  std::string describe(ex::Kind k) const { return "inc " + std::to_string(k); }
  std::array<ex::Invariant<Counters>, 0> invariants() const { return {}; }
};

int main() {
  Counters sys;
  const ex::ExploreResult r = ex::explore(sys, {.max_states = 100, .require_complete = true});
  const bool replayed = ex::replay(sys, {0, 1, 1}).ok();
  if (!r.ok() || r.states != 9 || r.depth != 4 || !replayed) {
    std::printf("consumer: unexpected result: %s\n", r.summary().c_str());
    return 1;
  }
  std::printf("consumer: ok\n");
  return 0;
}
