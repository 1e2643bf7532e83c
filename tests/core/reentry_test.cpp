// Tests of merilo/core/reentry.hpp.
#include <merilo/core/reentry.hpp>

#include <thread>

#include <gtest/gtest.h>

namespace core = merilo::core;

TEST(EntryGuard, MarksTheThreadInsideForItsLifetime) {
  EXPECT_FALSE(core::inside_merilo());
  {
    core::EntryGuard guard;
    EXPECT_TRUE(core::inside_merilo());
  }
  EXPECT_FALSE(core::inside_merilo());
}

TEST(EntryGuard, NestedGuardsRestoreTheOuterState) {
  core::EntryGuard outer;
  {
    core::EntryGuard inner;
    EXPECT_TRUE(core::inside_merilo());
  }
  EXPECT_TRUE(core::inside_merilo());
}

TEST(EntryGuard, IsPerThread) {
  core::EntryGuard guard;
  bool other_inside = true;
  std::thread([&] { other_inside = core::inside_merilo(); }).join();
  EXPECT_FALSE(other_inside);
  EXPECT_TRUE(core::inside_merilo());
}
