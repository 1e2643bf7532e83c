// The partial-order reduction: one execution per Mazurkiewicz trace, every
// trace and every outcome that a naive enumeration of all schedules finds.
#include <merilo/sync/detail/dpor.hpp>

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "toy_program.hpp"

namespace {

using merilo::sync::detail::Dpor;
using merilo::sync::testing::enumerate_all;
using merilo::sync::testing::Execution;
using merilo::sync::testing::Op;
using merilo::sync::testing::Program;
using merilo::sync::testing::run;
using merilo::sync::testing::trace_of;
using Kind = Op::Kind;

struct Explored {
  std::size_t executions = 0;
  std::size_t sleep_blocked = 0;
  bool complete = false;
  std::multiset<std::string> traces;  // of the executions not cut short
  std::set<std::string> outcomes;
};

Explored explore(const Program& p, std::size_t budget = 1'000'000) {
  Explored out;
  Dpor dpor(budget);
  while (dpor.begin()) {
    const std::size_t blocked_before = dpor.sleep_blocked();
    const Execution e = run(p, [&](auto enabled, const auto& pending, std::uint8_t preferred) {
      return dpor.choose(enabled, pending, preferred);
    });
    dpor.end(e.left);
    out.outcomes.insert(e.outcome);
    if (dpor.sleep_blocked() == blocked_before) out.traces.insert(trace_of(e.events));
    EXPECT_FALSE(dpor.diverged());
  }
  out.executions = dpor.executions();
  out.sleep_blocked = dpor.sleep_blocked();
  out.complete = dpor.complete();
  return out;
}

std::size_t factorial(std::size_t n) { return n <= 1 ? 1 : n * factorial(n - 1); }

TEST(Dpor, ThreadsWritingDifferentAtomicsAreOneTrace) {
  for (std::uint32_t n = 2; n <= 6; ++n) {
    Program p{n, {}};
    for (std::uint32_t t = 0; t < n; ++t)
      p.threads.push_back({{Kind::store, t + 1, 1}, {Kind::load, t + 1}});
    const Explored e = explore(p);
    EXPECT_TRUE(e.complete);
    EXPECT_EQ(e.executions, 1U) << n << " threads";
  }
}

TEST(Dpor, ThreadsAddingToOneAtomicGiveNFactorialTraces) {
  for (std::uint32_t n = 2; n <= 5; ++n) {
    Program p{1, {}};
    for (std::uint32_t t = 0; t < n; ++t) p.threads.push_back({{Kind::add, 1, 1}});
    const Explored e = explore(p);
    EXPECT_TRUE(e.complete);
    EXPECT_EQ(e.executions, factorial(n)) << n << " threads";
    EXPECT_EQ(e.sleep_blocked, 0U);
    EXPECT_EQ(std::set<std::string>(e.traces.begin(), e.traces.end()).size(), factorial(n));
  }
}

TEST(Dpor, AMutexProtectedCounterGivesNFactorialTraces) {
  for (std::uint32_t n = 2; n <= 5; ++n) {
    Program p{2, {}};  // object 1: the counter, 2: the mutex
    for (std::uint32_t t = 0; t < n; ++t) {
      p.threads.push_back({{Kind::lock, 2}, {Kind::load, 1}, {Kind::add, 1, 1}, {Kind::unlock, 2}});
    }
    const Explored e = explore(p);
    EXPECT_TRUE(e.complete);
    EXPECT_EQ(e.executions - e.sleep_blocked, factorial(n)) << n << " threads";
    EXPECT_EQ(e.outcomes.size(), factorial(n));  // each order of the sections loads other values
  }
}

TEST(Dpor, ReadsOfOneAtomicCommute) {
  Program p{1, {{{Kind::load, 1}, {Kind::load, 1}}, {{Kind::load, 1}}, {{Kind::load, 1}}}};
  EXPECT_EQ(explore(p).executions, 1U);
}

TEST(Dpor, FindsTheLostUpdateOfALoadThenStoreIncrement) {
  // Each thread loads the counter, then stores what it loaded plus one: the
  // toy has no "store loaded + 1", so two threads with values chosen so the
  // lost update shows as a final value: load, then add 1 is atomic; the racy
  // version is load then store of a fixed value per thread.
  Program p{1, {{{Kind::load, 1}, {Kind::store, 1, 1}}, {{Kind::load, 1}, {Kind::store, 1, 1}}}};
  const Explored e = explore(p);
  bool both_read_zero = false;
  for (const std::string& o : e.outcomes) both_read_zero |= o == "1 | 0,| 0,";
  EXPECT_TRUE(both_read_zero) << "the interleaving where both threads load 0 was not run";
}

TEST(Dpor, ALockOrderInversionDeadlocksInSomeExecution) {
  Program p{2,
            {{{Kind::lock, 1}, {Kind::lock, 2}, {Kind::unlock, 2}, {Kind::unlock, 1}},
             {{Kind::lock, 2}, {Kind::lock, 1}, {Kind::unlock, 1}, {Kind::unlock, 2}}}};
  const Explored e = explore(p);
  bool deadlock = false;
  for (const std::string& o : e.outcomes) deadlock |= o.find("deadlock") != std::string::npos;
  EXPECT_TRUE(deadlock);
  EXPECT_TRUE(e.complete);
}

TEST(Dpor, ABudgetEndsTheSearchIncomplete) {
  Program p{1, {{{Kind::add, 1, 1}}, {{Kind::add, 1, 1}}, {{Kind::add, 1, 1}}}};
  const Explored e = explore(p, 4);
  EXPECT_EQ(e.executions, 4U);
  EXPECT_FALSE(e.complete);
}

// Random small programs: the reduction runs every trace (and so every
// outcome) that running every schedule finds, each trace once.
Program random_program(std::uint64_t seed) {
  std::uint64_t s = seed * 0x9E3779B97F4A7C15ULL + 1;
  const auto draw = [&](std::uint64_t below) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s % below;
  };
  Program p;
  p.objects = 3;  // 1, 2: atomics; 3: a mutex
  const std::size_t threads = 2 + draw(3);
  for (std::size_t t = 0; t < threads; ++t) {
    std::vector<Op> ops;
    const std::size_t len = 1 + draw(3);
    for (std::size_t k = 0; k < len; ++k) {
      const auto obj = static_cast<std::uint32_t>(1 + draw(2));
      switch (draw(4)) {
        case 0:
          ops.push_back({Kind::load, obj});
          break;
        case 1:
          ops.push_back({Kind::store, obj, static_cast<std::int64_t>(t + 1)});
          break;
        case 2:
          ops.push_back({Kind::add, obj, 1});
          break;
        default:
          ops.push_back({Kind::lock, 3});
          ops.push_back({Kind::add, obj, 10});
          ops.push_back({Kind::unlock, 3});
          break;
      }
    }
    p.threads.push_back(ops);
  }
  // At most 12 steps in all, so that every schedule can be enumerated.
  for (auto& ops : p.threads) {
    if (ops.size() > 12 / threads) ops.resize(12 / threads);
    if (!ops.empty() && ops.back().kind == Kind::lock) ops.pop_back();
  }
  return p;
}

TEST(Dpor, RunsEveryTraceOfRandomProgramsExactlyOnce) {
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    const Program p = random_program(seed);
    std::set<std::string> all_traces;
    std::set<std::string> all_outcomes;
    const std::size_t schedules = enumerate_all(p, [&](const Execution& x) {
      all_traces.insert(trace_of(x.events));
      all_outcomes.insert(x.outcome);
    });
    const Explored e = explore(p);
    ASSERT_TRUE(e.complete) << "seed " << seed;
    const std::set<std::string> distinct(e.traces.begin(), e.traces.end());
    EXPECT_EQ(distinct, all_traces) << "seed " << seed;
    EXPECT_EQ(distinct.size(), e.traces.size()) << "seed " << seed << ": a trace ran twice";
    EXPECT_EQ(e.outcomes, all_outcomes) << "seed " << seed;
    EXPECT_LE(e.executions, schedules) << "seed " << seed;
  }
}

}  // namespace

// --- past eight threads ------------------------------------------------------

TEST(ThreadSet, FindsMembersInOrderAcrossBothWords) {
  using merilo::sync::detail::kMaxThreads;
  using merilo::sync::detail::ThreadSet;
  ThreadSet s;
  for (const unsigned t : {0U, 63U, 64U, 127U}) s.insert(t);
  EXPECT_EQ(s.count(), 4U);
  EXPECT_EQ(s.lowest(), 0U);
  EXPECT_EQ(s.from(1), 63U);
  EXPECT_EQ(s.from(64), 64U);
  EXPECT_EQ(s.from(65), 127U);
  EXPECT_EQ(s.from(128), kMaxThreads);
  EXPECT_EQ(s.next_from(128), 0U);  // wraps around
  EXPECT_EQ(s.nth(2), 64U);
  EXPECT_EQ(s.nth(3), 127U);
  EXPECT_EQ(s.nth(4), kMaxThreads);
  EXPECT_EQ(s.rank(127), 3U);
  EXPECT_FALSE(s.contains(128));
  EXPECT_FALSE(s.contains(62));
  s.erase(0);
  EXPECT_EQ(s.lowest(), 63U);
  EXPECT_EQ(ThreadSet::first(70).count(), 70U);
  EXPECT_EQ((ThreadSet::first(70) & ~ThreadSet::first(64)).lowest(), 64U);
  EXPECT_TRUE((ThreadSet::of(100) & ThreadSet::of(101)).empty());
}

TEST(Dpor, OneHundredThreadsWritingTheirOwnObjectsAreOneTrace) {
  Program p{100, {}};
  for (std::uint32_t t = 0; t < 100; ++t) p.threads.push_back({{Kind::store, t + 1, 1}});
  const Explored e = explore(p);
  EXPECT_TRUE(e.complete);
  EXPECT_EQ(e.executions, 1U);
}

TEST(Dpor, TwoThreadsFarApartThatShareAnObjectRunInBothOrders) {
  // Threads 3 and 90 (in different words of a thread set) both add to
  // object 1; the other 98 threads write objects of their own.
  Program p{101, {}};
  for (std::uint32_t t = 0; t < 100; ++t) {
    const std::uint32_t object = t == 3 || t == 90 ? 1 : t + 2;
    p.threads.push_back({{Kind::add, object, 1}});
  }
  const Explored e = explore(p);
  EXPECT_TRUE(e.complete);
  EXPECT_EQ(e.executions - e.sleep_blocked, 2U);
  EXPECT_EQ(e.outcomes.size(), 2U);
}
