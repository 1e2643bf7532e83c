// merilo/parallel/detail/glue.hpp — the one text every test framework's
// glue (<merilo/gtest.hpp>, catch2.hpp, doctest.hpp) fails a parallel test with, and
// the pinned test it prints for a failure found under a controlled
// scheduler, in the framework's own syntax, building the spec the way the
// caller did (`MERILO_EXPR`) or, checked, as `Type{}`.
#ifndef MERILO_PARALLEL_DETAIL_GLUE_HPP
#define MERILO_PARALLEL_DETAIL_GLUE_HPP

#include <string>
#include <string_view>
#include <type_traits>  // std::is_default_constructible_v

#include <merilo/core/framework.hpp>  // Framework, glue_namespace
#include <merilo/core/type_name.hpp>
#include <merilo/parallel/parallel.hpp>

namespace merilo::parallel::detail {

/// A paste-ready test that replays `failure` exactly (see `pin_token`) on
/// the spec `spec_expr` builds. The test's name is made an identifier for
/// GoogleTest; the name and the token are printed as literals short enough
/// per line that a reporter wrapping long lines (Catch2's console) cannot
/// break them.
template <class Cmd, class Resp>
std::string pinned_parallel_test(const Failure<Cmd, Resp>& failure, core::Framework framework,
                                 const std::string& test_name, std::string_view spec_expr) {
  const std::string tag = core::test_identifier(failure.violation.tag);
  const std::string head =
      framework == core::Framework::googletest
          ? "TEST(Pinned, " + core::test_identifier(test_name + "_" + tag) + ")"
          : "TEST_CASE(" +
                core::string_literal(core::pinned_case_name(test_name, failure.violation.tag),
                                     "    ") +
                ")";
  return head + " {\n  " + std::string(core::glue_namespace(framework)) +
         "::expect_parallel_replay_ok(\n      " + std::string(spec_expr) + ",\n      " +
         core::string_literal(pin_token(failure), "      ") + ");\n}\n";
}

/// How a pinned test builds the spec of `failure` when the caller did not
/// say (no `MERILO_EXPR`): `Type{}`, but only when `Type{}` fails the pin
/// the same way, so the pasted test cannot pass while the bug is there.
/// Else "" and, in `why`, what stops it.
template <class S, class Cmd, class Resp>
std::string default_spec_expr(const Failure<Cmd, Resp>& failure, const CheckOptions& config,
                              std::string& why) {
  using Spec_ = std::remove_cvref_t<S>;
  const std::string type = core::type_name<Spec_>();
  if (core::is_local_type<Spec_>()) {
    why = "the spec's type `" + type +
          "` is local to a function, and a test pasted at namespace scope cannot name it; "
          "declare the spec at namespace scope";
    return {};
  }
  if constexpr (!std::is_default_constructible_v<Spec_>) {
    why = "`" + type +
          "` has no default constructor and merilo does not know how the spec was "
          "built";
    return {};
  } else {
    const auto again = parallel::replay(Spec_{}, pin_token(failure), config);
    if (again.failure && again.failure->violation.tag == failure.violation.tag) return type + "{}";
    why = "`" + type + "{}` does not fail this pin (" +
          (!again.error.empty() ? again.error
           : again.failure      ? "it fails with " + again.failure->violation.tag + " instead"
                                : std::string("it passes")) +
          "): the spec that failed was configured by a member or a constructor argument, and a "
          "pinned test that built `" +
          type + "{}` would pass while the bug is there";
    return {};
  }
}

/// "" when `r` passed; else its usage error or its failing run's report,
/// with a pinned test when the failure was found under control. The pinned
/// test builds the spec with `spec_expr` (the caller's own expression, from
/// `MERILO_EXPR`); without one, with `Type{}` when that fails the pin too,
/// else the message says why no pinned test is printed and how to get one.
template <class S, class Cmd, class Resp>
[[nodiscard]] std::string glue_failure(const CheckResult<Cmd, Resp>& r, core::Framework framework,
                                       const std::string& test_name, const CheckOptions& config,
                                       std::string_view spec_expr = {}) {
  if (!r.error.empty()) return r.error;
  if (!r.failure) return {};
  std::string out = parallel::report(*r.failure);
  if (!is_controlled(r.failure->scheduling.scheduler)) return out;
  std::string why;
  const std::string expr =
      !spec_expr.empty() ? std::string(spec_expr) : default_spec_expr<S>(*r.failure, config, why);
  if (expr.empty()) {
    return out + "\nNo pinned test is printed: " + why +
           ". Name the spec's expression and the pinned test builds it so:\n  " +
           std::string(core::glue_namespace(framework)) +
           "::parallel_check(MERILO_EXPR(YourSpec{...}), config);\n";
  }
  return out +
         "\nPin it with this test, which replays the shrunk case under its schedule and fails "
         "while the bug is there:\n\n" +
         pinned_parallel_test(*r.failure, framework, test_name, expr);
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
