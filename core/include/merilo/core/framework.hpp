// merilo/core/framework.hpp — which test framework a glue call reports to.
//
// merilo has glue for three test frameworks, one header each:
// <merilo/gtest.hpp>, <merilo/catch2.hpp> and <merilo/doctest.hpp>. Each
// serves every checker (explore, statem, parallel) and differs from the
// others only in how it fails a test and how a pinned test it prints is
// spelled. `Framework` is that one choice, passed to the framework-neutral
// code that builds a failure's text (explore/framework.hpp,
// parallel/detail/glue.hpp), so the three glues say the same thing.
//
// Example (what a glue function does):
//
//   const std::string text = explore::explore_failure(sys, options, r,
//                                                     core::Framework::catch2, name);
#ifndef MERILO_CORE_FRAMEWORK_HPP
#define MERILO_CORE_FRAMEWORK_HPP

#include <cstdint>      // std::uint8_t
#include <string_view>  // glue_namespace

namespace merilo::core {

/// The test frameworks merilo has glue for.
enum class Framework : std::uint8_t {
  googletest,  ///< <merilo/gtest.hpp>, namespace merilo::testing, `TEST(Suite, Name)`.
  catch2,      ///< <merilo/catch2.hpp>, namespace merilo::with_catch2, `TEST_CASE("name")`.
  doctest,     ///< <merilo/doctest.hpp>, namespace merilo::with_doctest, `TEST_CASE("name")`.
};

/// The namespace of `framework`'s glue functions ("merilo::testing",
/// "merilo::with_catch2", "merilo::with_doctest"), as a pinned test names it.
[[nodiscard]] std::string_view glue_namespace(Framework framework) noexcept;

}  // namespace merilo::core

#endif  // MERILO_CORE_FRAMEWORK_HPP
