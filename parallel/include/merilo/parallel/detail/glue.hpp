// merilo/parallel/detail/glue.hpp — the one text every test framework's
// parallel glue (gtest.hpp, catch2.hpp, doctest.hpp) fails a test with, and
// the pinned test it prints for a failure found under a controlled
// scheduler, in the framework's own syntax.
#ifndef MERILO_PARALLEL_DETAIL_GLUE_HPP
#define MERILO_PARALLEL_DETAIL_GLUE_HPP

#include <string>
#include <string_view>
#include <type_traits>

#include <merilo/core/type_name.hpp>
#include <merilo/parallel/parallel.hpp>

namespace merilo::parallel::detail {

/// How a framework spells a test: GoogleTest's `TEST(Suite, Name)` or
/// Catch2's and doctest's `TEST_CASE("name")`, and the namespace of its glue.
struct GlueStyle {
  bool gtest = true;
  std::string_view glue_namespace = "merilo::testing";
};

/// A paste-ready test that replays `failure` exactly (see `pin_token`).
template <class S, class Cmd, class Resp>
std::string pinned_parallel_test(const Failure<Cmd, Resp>& failure, const GlueStyle& style,
                                 const std::string& test_name) {
  std::string tag = failure.violation.tag;
  for (char& c : tag) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) c = '_';
  }
  const std::string head = style.gtest ? "TEST(Pinned, " + test_name + "_" + tag + ")"
                                       : "TEST_CASE(\"" + test_name + ": pinned " + tag + "\")";
  return head + " {\n  " + std::string(style.glue_namespace) + "::expect_parallel_replay_ok(" +
         core::type_name<std::remove_cvref_t<S>>() + "{}, \"" + pin_token(failure) + "\");\n}\n";
}

/// "" when `r` passed; else its usage error or its failing run's report,
/// with a pinned test when the failure was found under control.
template <class S, class Cmd, class Resp>
[[nodiscard]] std::string glue_failure(const CheckResult<Cmd, Resp>& r, const GlueStyle& style,
                                       const std::string& test_name) {
  if (!r.error.empty()) return r.error;
  if (!r.failure) return {};
  std::string out = parallel::report(*r.failure);
  if (is_controlled(r.failure->scheduling.scheduler)) {
    out +=
        "\nPin it with this test, which replays the shrunk case under its schedule and fails "
        "while the bug is there:\n\n" +
        pinned_parallel_test<S>(*r.failure, style, test_name);
  }
  return out;
}

/// "" when the replay of a pin passed; else why not.
template <class Cmd, class Resp>
[[nodiscard]] std::string replay_failure(const CheckResult<Cmd, Resp>& r, std::string_view token) {
  if (!r.error.empty()) return r.error;
  if (!r.failure) return {};
  return "replay of " + std::string(token) + " failed:\n" + parallel::report(*r.failure);
}

}  // namespace merilo::parallel::detail

#endif  // MERILO_PARALLEL_DETAIL_GLUE_HPP
