#include <merilo/explore/explore.hpp>
#include <merilo/explore/gtest.hpp>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace {
namespace ex = merilo::explore;

// N independent counters 0..K: (K+1)^N worlds, the farthest N*K steps away.
template <std::size_t N, std::uint32_t K>
class Counters {
 public:
  struct World { std::array<std::uint32_t, N> v{}; };
  void reset() { w_ = {}; }
  std::size_t kinds() const { return N; }
  bool enabled(ex::Kind k) const { return w_.v[k] < K; }
  ex::Status apply(ex::Kind k) { ++w_.v[k]; return {}; }
  const World& world() const { return w_; }
  ex::Status check() const { return {}; }
  std::string tuple() const { return "c"; }
  bool settled() const { return true; }
  std::string describe(ex::Kind k) const { return "inc " + std::to_string(k); }
  std::vector<std::string> invariants() const { return {}; }
  void restore(const World& w) { w_ = w; }
 private:
  World w_{};
};

TEST(Explorer, CountsIndependentCounters) {
  Counters<3, 4> sys;
  auto r = merilo::testing::explore(sys, {.max_states = 1000, .require_complete = true});
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.states, 125u);
  EXPECT_EQ(r.depth, 12u);
}
}  // namespace
