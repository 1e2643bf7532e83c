// merilo/core/doctest.hpp — how merilo's doctest glue fails a test.
//
// Every doctest glue header (explore/doctest.hpp, statem/doctest.hpp,
// parallel/doctest.hpp) runs a check and, when it fails, records one failed
// check at the caller's file and line (doctest's `ADD_FAIL_CHECK_AT`), so
// the test case goes on and doctest's report points at the user's line,
// not into merilo. This header is that one step, and the name of the test
// case being run (for pinned tests).
//
// Example (inside a glue function):
//
//   if (!failure.empty()) merilo::core::with_doctest::fail_at(file, line, failure);
//
// NOTE: this header includes <doctest/doctest.h>; only glue headers include
// it. One translation unit of the test program defines doctest's main
// (`#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN` before including doctest).
#ifndef MERILO_CORE_DOCTEST_HPP
#define MERILO_CORE_DOCTEST_HPP

#include <string>  // messages

#include <doctest/doctest.h>

namespace merilo::core::with_doctest {

/// Records a failed check with `message` at `file`:`line` in the running
/// test case.
inline void fail_at(const char* file, int line, const std::string& message) {
  DOCTEST_ADD_FAIL_CHECK_AT(file, line, message);
}

/// The name of the running test case ("Pinned" outside one).
inline std::string test_name() {
  const ::doctest::ContextOptions* options = ::doctest::getContextOptions();
  if (options == nullptr || options->currentTest == nullptr) return "Pinned";
  const ::doctest::TestCaseData& test = *options->currentTest;
  return test.m_name != nullptr && *test.m_name != '\0' ? test.m_name : "Pinned";
}

}  // namespace merilo::core::with_doctest

#endif  // MERILO_CORE_DOCTEST_HPP
