// Tests of merilo/core/crash.hpp.
#include <merilo/core/crash.hpp>

#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

namespace core = merilo::core;

namespace {
template <class E>
std::exception_ptr thrown(E e) {
  try {
    throw e;
  } catch (...) {
    return std::current_exception();
  }
}
}  // namespace

TEST(CrashDetail, NamesWhereAndWhatForAStandardException) {
  EXPECT_EQ(core::crash_detail("apply", thrown(std::runtime_error("disk full"))),
            "an exception escaped apply: disk full");
}

TEST(CrashDetail, SaysUnknownTypeForAnythingElse) {
  EXPECT_EQ(core::crash_detail("check", thrown(42)), "an exception of unknown type escaped check");
}

TEST(ExceptionText, IsWhatOrAPlaceholder) {
  EXPECT_EQ(core::exception_text(thrown(std::logic_error("bad"))), "bad");
  EXPECT_EQ(core::exception_text(thrown(std::string("x"))),
            "an exception not derived from std::exception");
}
