// search_test.cpp — the search at scale: tuple keys, memory accounting by
// mode, progress lines and the summary's rates.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>

#include <merilo/explore/explore.hpp>

#include "fixtures.hpp"

namespace {

namespace ex = merilo::explore;

// Counters whose tuple_key() gives one key to every tuple: a broken contract.
class SharedKeyCounters : public fixtures::Counters<2, 3> {
 public:
  [[nodiscard]] std::uint64_t tuple_key() const { return 7; }
};

// Counters with a correct key: which counters are full, one bit each.
class KeyedCounters : public fixtures::Counters<3, 3> {
 public:
  [[nodiscard]] std::uint64_t tuple_key() const {
    std::uint64_t key = 0;
    for (std::size_t i = 0; i < 3; ++i) key |= std::uint64_t{w_.v[i] == 3} << i;
    return key;
  }
};

TEST(Search, ATupleKeyGivenToTwoTuplesIsAUsageErrorNamingBoth) {
  SharedKeyCounters sys;
  const ex::ExploreResult r = ex::explore(sys, {.max_states = 1000, .quiet = true});
  EXPECT_NE(r.error.find("tuple_key() returned 7 for two different tuples"), std::string::npos)
      << r.error;
  EXPECT_NE(r.error.find("\"open open\""), std::string::npos) << r.error;
  EXPECT_FALSE(r.ok());
}

// Counters whose tuple() also shows the last step taken, which is not in the
// world: the world (1, 1) shows "... last=c1" or "... last=c0" by path.
class LastStepCounters : public fixtures::Counters<2, 2> {
 public:
  ex::Status apply(ex::Kind k) {
    last_ = k;
    return fixtures::Counters<2, 2>::apply(k);
  }
  void reset() {
    fixtures::Counters<2, 2>::reset();
    last_ = 9;
  }
  [[nodiscard]] std::string tuple() const {
    return fixtures::Counters<2, 2>::tuple() + " last=c" + std::to_string(last_);
  }

 private:
  ex::Kind last_ = 9;
};

TEST(Search, ATupleThatDiffersForEqualWorldsIsReportedAsNondeterminism) {
  for (const ex::Mode mode : {ex::Mode::replay, ex::Mode::restore}) {
    for (unsigned threads : {1U, 2U}) {
      LastStepCounters sys;
      const ex::ExploreResult r =
          ex::explore(sys, {.max_states = 1000, .mode = mode, .threads = threads, .quiet = true});
      ASSERT_TRUE(r.error.empty()) << r.error;
      EXPECT_EQ(r.violation.kind, ex::ViolationKind::nondeterminism) << r.summary();
      EXPECT_NE(r.violation.detail.find("tuple() returned \"open open last=c0\" for a world it "
                                        "showed as \"open open last=c1\" along another path"),
                std::string::npos)
          << r.violation.detail;
      EXPECT_EQ(r.violation.trace, (ex::Trace{1, 0}));
      EXPECT_FALSE(r.ok());
    }
  }
}

TEST(Search, TupleKeysGiveTheSameTuplesAndTracesAsStrings) {
  KeyedCounters keyed;
  fixtures::Counters<3, 3> plain;
  for (unsigned threads : {1U, 2U}) {
    const ex::ExploreResult a =
        ex::explore(keyed, {.max_states = 1000, .threads = threads, .quiet = true});
    const ex::ExploreResult b =
        ex::explore(plain, {.max_states = 1000, .threads = threads, .quiet = true});
    ASSERT_TRUE(a.ok()) << a.summary();
    EXPECT_EQ(a.states, 64U);
    EXPECT_EQ(a.tuples.size(), 8U);
    EXPECT_EQ(a.tuples, b.tuples);
    EXPECT_EQ(a.tuple_traces, b.tuple_traces);
  }
}

// 64 worlds of 4 KiB each: what the frontier holds is visible in memory.
class BigWorlds {
 public:
  struct World {
    std::array<std::uint8_t, 4096> bytes{};
  };
  void reset() { w_ = {}; }
  [[nodiscard]] std::size_t kinds() const { return 3; }
  [[nodiscard]] bool enabled(ex::Kind k) const { return w_.bytes[k] < 3; }
  ex::Status apply(ex::Kind k) {
    ++w_.bytes[k];
    return {};
  }
  [[nodiscard]] const World& world() const { return w_; }
  void restore(const World& w) { w_ = w; }
  [[nodiscard]] std::string tuple() const { return "one"; }
  [[nodiscard]] bool settled() const { return true; }
  [[nodiscard]] std::string describe(ex::Kind k) const { return std::to_string(k); }
  [[nodiscard]] std::array<ex::Invariant<BigWorlds>, 0> invariants() const { return {}; }

 private:
  World w_{};
};

TEST(Search, MemoryCountsTheWorldsRestoreModeKeepsAndReplayModeKeepsNone) {
  BigWorlds sys;
  const ex::ExploreResult replay =
      ex::explore(sys, {.max_states = 1000, .mode = ex::Mode::replay, .quiet = true});
  const ex::ExploreResult restore =
      ex::explore(sys, {.max_states = 1000, .mode = ex::Mode::restore, .quiet = true});
  ASSERT_EQ(replay.states, 64U);
  ASSERT_EQ(restore.states, 64U);
  // The widest level of the 4x4x4 cube holds 12 worlds, its successors up
  // to 3 each: restore mode keeps at least those 12 worlds of 4 KiB.
  EXPECT_GE(restore.memory_bytes, replay.memory_bytes + 12 * sizeof(BigWorlds::World));
  EXPECT_LT(replay.memory_bytes, 64 * sizeof(BigWorlds::World));
}

// Counters whose apply takes 5 ms: a search of a few seconds.
class SlowCounters : public fixtures::Counters<2, 5> {
 public:
  ex::Status apply(ex::Kind k) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return fixtures::Counters<2, 5>::apply(k);
  }
};

std::string read_all(std::FILE* f) {
  std::rewind(f);
  std::string text;
  std::array<char, 4096> buf{};
  for (std::size_t n; (n = std::fread(buf.data(), 1, buf.size(), f)) > 0;)
    text.append(buf.data(), n);
  return text;
}

TEST(Search, ALongSearchPrintsPlainProgressLinesWhenTheLogIsNoTerminal) {
  std::FILE* log = std::tmpfile();
  ASSERT_NE(log, nullptr);
  SlowCounters sys;
  const ex::ExploreResult r =
      ex::explore(sys, {.max_states = 1000, .mode = ex::Mode::restore, .log = log});
  ASSERT_TRUE(r.ok()) << r.summary();
  ASSERT_GT(r.seconds, 1.0);
  const std::string text = read_all(log);
  std::fclose(log);
  EXPECT_EQ(text.find('\r'), std::string::npos) << text;
  EXPECT_EQ(text.rfind("merilo: 1s states=", 0), 0U) << text;
  EXPECT_NE(text.find(" frontier="), std::string::npos) << text;
  EXPECT_NE(text.find(" memory="), std::string::npos) << text;
  // The summary follows, with the rate and the bytes per state.
  EXPECT_NE(text.find("\nmerilo: complete=true states=36 "), std::string::npos) << text;
  EXPECT_NE(text.find(" states/s, "), std::string::npos) << text;
  EXPECT_NE(text.find(" B/state)\n"), std::string::npos) << text;
}

TEST(Search, AShortSearchPrintsOnlyItsSummary) {
  std::FILE* log = std::tmpfile();
  ASSERT_NE(log, nullptr);
  fixtures::Counters<2, 5> sys;
  const ex::ExploreResult r = ex::explore(sys, {.max_states = 1000, .log = log});
  ASSERT_TRUE(r.ok());
  const std::string text = read_all(log);
  std::fclose(log);
  EXPECT_EQ(text.rfind("merilo: complete=true states=36 depth=10 invariants=0 [] (", 0), 0U)
      << text;
  EXPECT_EQ(text.find('\n'), text.size() - 1) << text;
}

}  // namespace
