// merilo/core/catch2.hpp — how merilo's Catch2 glue fails a test.
//
// Every Catch2 glue header (explore/catch2.hpp, statem/catch2.hpp,
// parallel/catch2.hpp) runs a check and, when it fails, records one failed
// assertion at the caller's file and line — as a `FAIL_CHECK` written there
// would, so the test goes on and Catch2's report points at the user's line,
// not into merilo. This header is that one step, and the name of the test
// being run (for pinned tests). It works with Catch2 v2 (`<catch2/catch.hpp>`,
// Debian 12's `catch2`) and v3 (`<catch2/catch_test_macros.hpp>`).
//
// Example (inside a glue function):
//
//   if (!failure.empty()) merilo::core::with_catch2::fail_at(file, line, failure);
//
// NOTE: this header includes Catch2; only glue headers include it. Link
// Catch2 yourself (`Catch2::Catch2WithMain`, or `Catch2::Catch2` and your
// own main).
#ifndef MERILO_CORE_CATCH2_HPP
#define MERILO_CORE_CATCH2_HPP

#include <cstddef>  // std::size_t
#include <string>   // messages

#if __has_include(<catch2/catch_test_macros.hpp>)
#include <catch2/catch_test_macros.hpp>  // Catch2 v3
#else
#include <catch2/catch.hpp>  // Catch2 v2
#endif

namespace merilo::core::with_catch2 {

/// Records a failed, non-fatal assertion with `message` at `file`:`line`
/// in the running test case: what `FAIL_CHECK(message)` written at that
/// line records.
inline void fail_at(const char* file, int line, const std::string& message) {
  Catch::AssertionHandler handler("FAIL_CHECK",
                                  Catch::SourceLineInfo(file, static_cast<std::size_t>(line)),
                                  Catch::StringRef(), Catch::ResultDisposition::ContinueOnFailure);
  handler.handleMessage(Catch::ResultWas::ExplicitFailure, std::string(message));
  handler.complete();
}

/// The name of the running test case ("Pinned" outside one).
inline std::string test_name() {
  std::string name = Catch::getResultCapture().getCurrentTestName();
  return name.empty() ? std::string("Pinned") : name;
}

}  // namespace merilo::core::with_catch2

#endif  // MERILO_CORE_CATCH2_HPP
