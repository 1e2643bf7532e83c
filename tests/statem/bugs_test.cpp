// statem finds each seeded bug and shrinks it to the known minimal list, for
// (nearly) every seed; the fixed variants pass.
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "deep_systems.hpp"
#include "systems.hpp"

namespace st = merilo::statem;
namespace sys = statem_systems;
namespace ds = deep_systems;

namespace {

constexpr std::uint64_t kSeeds = 100;

/// Checks `spec` with seeds 0..99 and returns how many found the bug and
/// shrank it to exactly `minimal`; prints the fraction.
template <class Spec, class Minimal>
std::uint64_t shrunk_to_minimal(const char* what, Spec spec, Minimal minimal_for) {
  std::uint64_t hits = 0;
  std::uint64_t found = 0;
  for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
    auto r = st::check(spec, st::CheckOptions{.seed = seed, .test_count = 100, .max_commands = 30});
    EXPECT_TRUE(r.error.empty()) << r.error;
    if (!r.failure) continue;
    ++found;
    if (r.failure->shrunk == minimal_for(r.failure->shrunk)) {
      ++hits;
    } else {
      ADD_FAILURE() << what << ": seed " << seed << " shrank elsewhere:\n"
                    << st::report(*r.failure);
    }
  }
  std::printf(
      "[statem] %s: found in %llu/%llu seeds, shrunk to the known minimal list in %llu/%llu\n",
      what, static_cast<unsigned long long>(found), static_cast<unsigned long long>(kSeeds),
      static_cast<unsigned long long>(hits), static_cast<unsigned long long>(kSeeds));
  ::testing::Test::RecordProperty(std::string(what) + "_minimal_of_100", static_cast<int>(hits));
  return hits;
}

}  // namespace

TEST(SeededBugs, BoundedQueueDroppingAtCapacityShrinksToFourPushes) {
  EXPECT_GE(shrunk_to_minimal("queue", sys::queue::Spec{},
                              [](const auto&) { return sys::queue::minimal(); }),
            95U);
}

TEST(SeededBugs, StaleEntryAfterOverwriteAndDeleteShrinksToFourCommandsOnKeyZero) {
  EXPECT_GE(shrunk_to_minimal(
                "kv", sys::kv::Spec{},
                [](const std::vector<sys::kv::Cmd>& /*shrunk*/) { return sys::kv::minimal(0); }),
            95U);
}

TEST(SeededBugs, WrappingCounterShrinksToFourIncrements) {
  EXPECT_GE(shrunk_to_minimal("counter", sys::counter::Spec{},
                              [](const auto&) { return sys::counter::minimal(); }),
            95U);
}

TEST(SeededBugs, TheFixedSystemsPassEveryRun) {
  for (std::uint64_t seed = 0; seed < 5; ++seed) {
    const st::CheckOptions config{.seed = seed, .test_count = 200, .max_commands = 30};
    auto q = st::check(sys::queue::Spec{.buggy = false}, config);
    auto k = st::check(sys::kv::Spec{.buggy = false}, config);
    auto c = st::check(sys::counter::Spec{.buggy = false}, config);
    EXPECT_TRUE(q.ok() && k.ok() && c.ok()) << seed;
    EXPECT_EQ(q.runs, 200U);
    EXPECT_EQ(k.runs, 200U);
    EXPECT_EQ(c.runs, 200U);
  }
}

namespace {

/// Checks `spec` at the default config with seeds 0..99 and returns how
/// many found the bug and shrank it to a list `minimal` accepts.
template <class Spec, class Minimal>
std::uint64_t minimal_at_defaults(const char* what, Minimal minimal) {
  std::uint64_t found = 0;
  std::uint64_t hits = 0;
  for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
    auto r = st::check(Spec{}, st::CheckOptions{.seed = seed});
    EXPECT_TRUE(r.error.empty()) << r.error;
    if (!r.failure) continue;
    ++found;
    if (minimal(r.failure->shrunk)) {
      ++hits;
    } else {
      ADD_FAILURE() << what << ": seed " << seed << " shrank elsewhere:\n"
                    << st::report(*r.failure);
    }
  }
  std::printf("[statem] %s at the defaults: found in %llu/100 seeds, minimal in %llu/100\n", what,
              static_cast<unsigned long long>(found), static_cast<unsigned long long>(hits));
  return hits;
}

}  // namespace

// Deep bugs at the default config: found, and shrunk to the minimal length
// with the minimal values (equal values across commands move together).
TEST(DeepBugs, ASortedSetWhoseEraseRemovesTheWrongElement) {
  EXPECT_GE(minimal_at_defaults<ds::sorted_set::Spec>("sorted set", ds::sorted_set::minimal), 90U);
}

TEST(DeepBugs, AnLruCacheWhoseGetDoesNotRefresh) {
  EXPECT_GE(minimal_at_defaults<ds::lru::Spec>("lru", ds::lru::minimal), 90U);
}

TEST(DeepBugs, AHashMapThatLosesABucketOnGrowth) {
  EXPECT_GE(minimal_at_defaults<ds::hashmap::Spec>("hash map", ds::hashmap::minimal), 90U);
}

TEST(DeepBugs, ATrieWhoseEraseLosesLongerWords) {
  EXPECT_GE(minimal_at_defaults<ds::trie::Spec>("trie", ds::trie::minimal), 90U);
}

// The two shapes where the shrinker used to stop one step short of the
// least case (issue 37): 7/100 and 42/100 before the pair pass and the
// deletion of stranded commands.
TEST(DeepBugs, KeysThatMustStayOneApartShrinkTogetherToPutZeroGetOne) {
  EXPECT_EQ(minimal_at_defaults<ds::neighbour::Spec>("neighbour", ds::neighbour::minimal), 100U);
}

TEST(DeepBugs, ATransactionBracketIsDeletedWholeDownToTenIncsAndARead) {
  EXPECT_EQ(minimal_at_defaults<ds::tx_counter::Spec>("tx counter", ds::tx_counter::minimal), 100U);
}

TEST(DeepBugs, TheFixedSystemsPassEveryRunAtTheDefaults) {
  for (std::uint64_t seed = 0; seed < 3; ++seed) {
    const st::CheckOptions config{.seed = seed};
    EXPECT_TRUE(st::check(ds::sorted_set::Spec{.buggy = false}, config).ok());
    EXPECT_TRUE(st::check(ds::lru::Spec{.buggy = false}, config).ok());
    EXPECT_TRUE(st::check(ds::hashmap::Spec{.buggy = false}, config).ok());
    EXPECT_TRUE(st::check(ds::trie::Spec{.buggy = false}, config).ok());
    EXPECT_TRUE(st::check(ds::neighbour::Spec{.buggy = false}, config).ok());
    EXPECT_TRUE(st::check(ds::tx_counter::Spec{.buggy = false}, config).ok());
  }
}
