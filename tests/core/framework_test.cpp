// The one type that names a test framework, shared by every checker's glue.
#include <merilo/core/framework.hpp>

#include <gtest/gtest.h>

namespace {

namespace core = merilo::core;

TEST(Framework, NamesTheNamespaceEachFrameworksGlueLivesIn) {
  EXPECT_EQ(core::glue_namespace(core::Framework::googletest), "merilo::testing");
  EXPECT_EQ(core::glue_namespace(core::Framework::catch2), "merilo::with_catch2");
  EXPECT_EQ(core::glue_namespace(core::Framework::doctest), "merilo::with_doctest");
}

}  // namespace
