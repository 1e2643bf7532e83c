// framework.hpp — the test framework a glue test is built for: Catch2 when
// MERILO_GLUE_CATCH2 is defined, doctest when MERILO_GLUE_DOCTEST is (each
// test file is compiled once for each, tests/glue/CMakeLists.txt). Both
// frameworks spell a test `TEST_CASE("...")` and a check `CHECK(...)`, so the
// same file tests both glues; `glue` names the one under test.
#ifndef MERILO_TESTS_GLUE_FRAMEWORK_HPP
#define MERILO_TESTS_GLUE_FRAMEWORK_HPP

#if defined(MERILO_GLUE_CATCH2)
#include <merilo/catch2.hpp>
namespace glue = merilo::with_catch2;
#elif defined(MERILO_GLUE_DOCTEST)
// Each glue test program is one file, so it defines doctest's main.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <merilo/doctest.hpp>
namespace glue = merilo::with_doctest;
#else
#error "define MERILO_GLUE_CATCH2 or MERILO_GLUE_DOCTEST"
#endif

#endif  // MERILO_TESTS_GLUE_FRAMEWORK_HPP
