// spill_test.cpp — a frontier that spills to disk: the same result as in
// memory on any thread count, a bounded queue in memory, no file left
// behind however the search ends, and clear errors for a directory it
// cannot use or a disk that fills.
#include <gtest/gtest.h>

#include <array>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <unistd.h>

#include <merilo/explore/detail/parent_links.hpp>
#include <merilo/explore/detail/spill_file.hpp>
#include <merilo/explore/explore.hpp>
#include <merilo/explore/replay.hpp>

#include <tla_twophase/system.hpp>

#include "fixtures.hpp"

namespace {

namespace ex = merilo::explore;
namespace dt = merilo::explore::detail;
namespace fs = std::filesystem;

// A fresh, empty directory for one test's spill files, removed after it.
class SpillDir {
 public:
  SpillDir() {
    const std::string name =
        "merilo-spill-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++);
    path_ = fs::temp_directory_path() / name;
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~SpillDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  SpillDir(const SpillDir&) = delete;
  SpillDir& operator=(const SpillDir&) = delete;
  [[nodiscard]] std::string path() const { return path_.string(); }
  [[nodiscard]] std::size_t entries() const {
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(path_)) ++n;
    return n;
  }

 private:
  static inline int counter_ = 0;
  fs::path path_;
};

ex::ExploreOptions quiet(std::size_t max_states) {
  ex::ExploreOptions o;
  o.max_states = max_states;
  o.quiet = true;
  return o;
}

// Everything of a result that must not depend on where the queue lives.
void expect_same(const ex::ExploreResult& a, const ex::ExploreResult& b) {
  EXPECT_EQ(a.error, b.error);
  EXPECT_EQ(a.complete, b.complete);
  EXPECT_EQ(a.states, b.states);
  EXPECT_EQ(a.depth, b.depth);
  EXPECT_EQ(a.tuples, b.tuples);
  EXPECT_EQ(a.tuple_traces, b.tuple_traces);
  EXPECT_EQ(a.violation.kind, b.violation.kind);
  EXPECT_EQ(a.violation.trace, b.violation.trace);
  EXPECT_EQ(a.violation.invariant, b.violation.invariant);
  EXPECT_EQ(a.summary(), b.summary());
}

TEST(SpillingFrontier, GivesTheInMemoryResultOnOneAndTwoThreadsWithATinyBound) {
  SpillDir dir;
  tla_twophase::System<5> sys;  // 8,832 worlds
  const ex::ExploreResult in_memory = ex::explore(sys, quiet(100'000));
  ASSERT_TRUE(in_memory.complete) << in_memory.summary();
  ASSERT_EQ(in_memory.states, 8'832U);
  for (ex::Mode mode : {ex::Mode::replay, ex::Mode::restore}) {
    for (unsigned threads : {1U, 2U}) {
      tla_twophase::System<5> spilled_sys;
      ex::ExploreOptions o = quiet(100'000);
      o.mode = mode;
      o.threads = threads;
      o.frontier_bytes = 64;  // a handful of worlds: every level spills, in many writes
      o.spill_dir = dir.path();
      const ex::ExploreResult r = ex::explore(spilled_sys, o);
      SCOPED_TRACE(::testing::Message()
                   << "threads=" << threads << " restore=" << (mode == ex::Mode::restore));
      expect_same(in_memory, r);
      // The links alone take 8,832 * 5 bytes, all but a block on disk.
      EXPECT_GT(r.spilled_bytes, 8'000U * 5) << r.summary();
      EXPECT_EQ(dir.entries(), 0U);
    }
  }
}

TEST(SpillingFrontier, ReadsALevelWiderThanOneSliceBackInOrder) {
  SpillDir dir;
  fixtures::Bits<19> sys;  // levels of up to 92,378 worlds: two slices each
  ex::ExploreOptions o = quiet(1'000'000);
  o.threads = 2;
  const ex::ExploreResult in_memory = ex::explore(sys, o);
  ASSERT_TRUE(in_memory.complete);
  o.frontier_bytes = 4096;
  o.spill_dir = dir.path();
  const ex::ExploreResult r = ex::explore(sys, o);
  expect_same(in_memory, r);
  // The widest level alone is 92,378 * (4 + 4) bytes of records.
  EXPECT_GT(r.spilled_bytes, 92'378U * 8);
  EXPECT_LT(r.memory_bytes, in_memory.memory_bytes);
}

TEST(SpillingFrontier, ReportsTheSameShortestReplayableCounterexample) {
  SpillDir dir;
  tla_twophase::System<4, tla_twophase::Bug::early_commit> sys;
  const ex::ExploreResult in_memory = ex::explore(sys, quiet(100'000));
  ASSERT_TRUE(in_memory.violation.found());
  for (unsigned threads : {1U, 2U}) {
    ex::ExploreOptions o = quiet(100'000);
    o.threads = threads;
    o.frontier_bytes = 1;  // below one record: each world is written alone
    o.spill_dir = dir.path();
    const ex::ExploreResult r = ex::explore(sys, o);
    expect_same(in_memory, r);
    EXPECT_GT(r.spilled_bytes, 0U);  // its links were read back from disk
    EXPECT_TRUE(ex::replay(sys, r.violation.trace).violation.found());
  }
}

TEST(SpillingFrontier, WorksWithHashCompaction) {
  SpillDir dir;
  fixtures::Counters<4, 9> sys;  // 10,000 worlds
  ex::ExploreOptions o = quiet(100'000);
  o.compact_bits = 40;
  const ex::ExploreResult in_memory = ex::explore(sys, o);
  o.frontier_bytes = 256;
  o.spill_dir = dir.path();
  o.threads = 2;
  const ex::ExploreResult r = ex::explore(sys, o);
  expect_same(in_memory, r);
  EXPECT_EQ(r.states, 10'000U);
  EXPECT_GT(r.spilled_bytes, 0U);
}

TEST(SpillingFrontier, KeepsTheWholeQueueInMemoryWhenItFitsTheBound) {
  SpillDir dir;
  fixtures::Counters<3, 9> sys;  // 1,000 worlds, levels of at most 75
  ex::ExploreOptions o = quiet(10'000);
  o.frontier_bytes = 1 << 20;  // the links' blocks: 2^17 links, never full here
  o.spill_dir = dir.path();
  const ex::ExploreResult r = ex::explore(sys, o);
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.states, 1'000U);
  EXPECT_EQ(r.spilled_bytes, 0U);
}

TEST(SpillingFrontier, UsesTheSystemTemporaryDirectoryByDefault) {
  fixtures::Counters<3, 9> sys;
  ex::ExploreOptions o = quiet(10'000);
  o.frontier_bytes = 16;
  const ex::ExploreResult r = ex::explore(sys, o);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.states, 1'000U);
  EXPECT_GT(r.spilled_bytes, 0U);
}

TEST(SpillingFrontier, RefusesADirectoryThatDoesNotExistOrIsAFile) {
  SpillDir dir;
  fixtures::Counters<2, 3> sys;
  ex::ExploreOptions o = quiet(100);
  o.frontier_bytes = 64;
  o.spill_dir = dir.path() + "/missing";
  ex::ExploreResult r = ex::explore(sys, o);
  EXPECT_NE(r.error.find("spill directory '" + o.spill_dir + "'"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("does not exist"), std::string::npos) << r.error;
  EXPECT_EQ(r.states, 0U);

  const std::string file = dir.path() + "/a-file";
  {
    std::FILE* f = std::fopen(file.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fclose(f);
  }
  o.spill_dir = file;
  r = ex::explore(sys, o);
  EXPECT_NE(r.error.find("is not a directory"), std::string::npos) << r.error;
}

TEST(SpillingFrontier, RefusesADirectoryItCannotWriteBeforeTheSearchStarts) {
  fixtures::Counters<2, 3> sys;
  ex::ExploreOptions o = quiet(100);
  o.frontier_bytes = 64;
  o.spill_dir = "/proc";  // a directory no one may create files in, root included
  const ex::ExploreResult r = ex::explore(sys, o);
  EXPECT_NE(r.error.find("could not create the parent links spill file in '/proc'"),
            std::string::npos)
      << r.error;
  EXPECT_EQ(r.states, 0U);
}

TEST(SpillingFrontier, EndsWithAClearErrorAndNoFilesWhenTheDiskFills) {
  SpillDir dir;
  // A file size limit stands in for a full disk: a write past it fails
  // (EFBIG) as one on a full disk does (ENOSPC).
  rlimit old{};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
  void (*old_handler)(int) = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = old;
  small.rlim_cur = 64 * 1024;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  fixtures::Counters<4, 15> sys;  // 65,536 worlds: 320 kB of links alone
  ex::ExploreOptions o = quiet(100'000);
  o.frontier_bytes = 256;
  o.spill_dir = dir.path();
  o.threads = 2;
  const ex::ExploreResult r = ex::explore(sys, o);
  const std::size_t left = dir.entries();
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &old), 0);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_NE(r.error.find("could not write the"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("(the disk or quota is full)"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find(dir.path()), std::string::npos) << r.error;
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(left, 0U);
}

TEST(SpillingFrontier, NeedsFrontierBytesForASpillDirectory) {
  fixtures::Counters<2, 3> sys;
  ex::ExploreOptions o = quiet(100);
  o.spill_dir = "/tmp";
  const ex::ExploreResult r = ex::explore(sys, o);
  EXPECT_NE(r.error.find("spill_dir is '/tmp' but frontier_bytes is 0"), std::string::npos)
      << r.error;
}

TEST(SpillingFrontier, IsRefusedWhereTheSearchCannotSpill) {
  ex::ExploreOptions o = quiet(100);
  o.frontier_bytes = 64;
  // explore_mpi checks its options without saying it spills.
  EXPECT_NE(dt::check_options(o, true, true).find("refuses ExploreOptions::frontier_bytes"),
            std::string::npos);
  EXPECT_EQ(dt::check_options(o, true, true, true), "");
}

// A restorable system whose world is not trivially copyable (it feeds its
// bytes): a spilling restore-mode search cannot write it, replay can.
class Named {
 public:
  struct World {
    std::string name;
    template <class Sink>
    void feed(Sink& sink) const {
      const std::size_t n = name.size();
      sink(&n, sizeof n);
      sink(name.data(), name.size());
    }
  };
  void reset() { w_ = {}; }
  [[nodiscard]] std::size_t kinds() const { return 2; }
  [[nodiscard]] bool enabled(ex::Kind) const { return w_.name.size() < 6; }
  ex::Status apply(ex::Kind k) {
    w_.name += k == 0 ? 'a' : 'b';
    return {};
  }
  [[nodiscard]] const World& world() const { return w_; }
  void restore(const World& w) { w_ = w; }
  [[nodiscard]] std::string tuple() const { return "any"; }
  [[nodiscard]] bool settled() const { return true; }
  [[nodiscard]] std::string describe(ex::Kind k) const { return k == 0 ? "a" : "b"; }
  [[nodiscard]] std::array<ex::Invariant<Named>, 0> invariants() const { return {}; }

 private:
  World w_{};
};

TEST(SpillingFrontier, ReplaysWorldsThatAreNotTriviallyCopyable) {
  Named sys;
  ex::ExploreOptions o = quiet(1'000);
  o.frontier_bytes = 32;
  const ex::ExploreResult automatic = ex::explore(sys, o);
  EXPECT_TRUE(automatic.complete) << automatic.error;
  EXPECT_EQ(automatic.states, 127U);  // strings of up to 6 letters of {a, b}
  o.mode = ex::Mode::restore;
  const ex::ExploreResult restore = ex::explore(sys, o);
  EXPECT_NE(restore.error.find("not trivially copyable; use Mode::replay"), std::string::npos)
      << restore.error;
}

TEST(ParentLinks, ReadSpilledLinksBackFromTheirFile) {
  SpillDir dir;
  dt::ParentLinks links(300);  // two bytes per kind
  links.spill(std::make_unique<dt::SpillFile>(dir.path(), "parent links"), 6);
  links.add_root();
  for (std::uint32_t id = 1; id < 1000; ++id) links.add(id - 1, (id * 7) % 300);
  EXPECT_GT(links.spilled_bytes(), 900U * 6);
  EXPECT_EQ(links.parent(999), 998U);
  EXPECT_EQ(links.kind(5), 35U);
  EXPECT_EQ(links.kind(999), (999U * 7) % 300);
  const ex::Trace t = links.path(70);
  ASSERT_EQ(t.size(), 70U);
  for (std::size_t i = 0; i < t.size(); ++i) EXPECT_EQ(t[i], ((i + 1) * 7) % 300);
  EXPECT_EQ(dir.entries(), 0U);
}

}  // namespace
