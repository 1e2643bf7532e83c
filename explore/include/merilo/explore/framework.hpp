// merilo/explore/framework.hpp — what the test-framework glue says, written
// once for every framework.
//
// merilo has glue for three test frameworks: GoogleTest (<merilo/gtest.hpp>),
// Catch2 (<merilo/catch2.hpp>) and doctest (<merilo/doctest.hpp>). Each glue
// header is a thin layer that runs a check and hands a failure to its
// framework at the caller's file and line; the text of an explore failure —
// the violation, the formatted trace, the trace page and a ready-to-paste
// pinned test in the framework's own syntax (`core::Framework`) — is built
// here, without any framework, so the three say the same thing.
//
// Example (what a glue function does; `name` is the current test's name):
//
//   ExploreResult r = explore(sys, options);
//   std::string message =
//       explore_failure(sys, options, r, core::Framework::catch2, name, "turnstile::System<>{}");
//   if (!message.empty()) { /* fail the test with `message` */ }
//
// Trace pages. When the environment variable `MERILO_TRACE_HTML` names a
// directory, every counterexample a glue call reports is also written
// there as an HTML page (html.hpp), named after the pinned test, and the
// failure message gives its path.
#ifndef MERILO_EXPLORE_FRAMEWORK_HPP
#define MERILO_EXPLORE_FRAMEWORK_HPP

#include <string>       // messages
#include <string_view>  // names
#include <type_traits>  // std::is_default_constructible_v

#include <merilo/core/framework.hpp>     // Framework, glue_namespace
#include <merilo/core/type_name.hpp>     // type_name
#include <merilo/explore/explore.hpp>    // explore, ExploreOptions, ExploreResult
#include <merilo/explore/html.hpp>       // write_trace_html
#include <merilo/explore/replay.hpp>     // replay, format
#include <merilo/explore/system.hpp>     // System
#include <merilo/explore/trace.hpp>      // Trace
#include <merilo/explore/violation.hpp>  // ViolationKind

namespace merilo::explore {

/// A test that replays `trace` on the system `system_expr` builds and fails
/// while it breaks a rule, ready to paste, in `framework`'s syntax: for
/// GoogleTest `TEST(Replay, <test>_<kind>)` (as `replay_test`), for Catch2
/// and doctest `TEST_CASE("<test>: pinned <kind>")` (`"<test> (pinned
/// <kind>)"` for a long test name: `core::pinned_case_name`), the name
/// printed as short adjacent literals when long (`core::string_literal`).
/// `test` is the name of the test that found the trace.
[[nodiscard]] std::string pinned_test(core::Framework framework, std::string_view test,
                                      ViolationKind kind, std::string_view system_expr,
                                      const Trace& trace);

/// What a glue `explore` call fails with: "" when `result` passed; its usage
/// error; the violation with its formatted trace, the trace page (when
/// `MERILO_TRACE_HTML` is set) and `pinned_test`; with
/// `options.require_complete`, that the search stopped at `max_states`; or
/// that a complete search never reached a sometimes property.
/// `system_expr` builds the system in the pinned test (the caller's own
/// expression, from `MERILO_EXPR`). "" builds it as `S{}`, but only when a
/// default-built `S` breaks the same rule along the same trace; when it
/// does not (the system was configured by a member or a constructor
/// argument), or `S` is local to a function, no pinned test is printed and
/// the message says why and how to get one.
template <System S>
[[nodiscard]] std::string explore_failure(S& sys, const ExploreOptions& options,
                                          const ExploreResult& result, core::Framework framework,
                                          std::string_view test, std::string system_expr = {});

/// What a glue `expect_replay_ok` call fails with: "" when `trace` fits and
/// breaks no rule, else what happened and the formatted trace.
template <System S>
[[nodiscard]] std::string replay_ok_failure(S& sys, const Trace& trace);

/// What a glue `expect_replay_finds` call fails with: "" when `trace` breaks
/// a rule of `kind` at its last step, else what happened instead and the
/// formatted trace.
template <System S>
[[nodiscard]] std::string replay_finds_failure(S& sys, const Trace& trace, ViolationKind kind);

namespace detail {

/// Where the page of a counterexample pinned as `pinned` goes:
/// `$MERILO_TRACE_HTML/<pinned, made a file name>.html`, or "" when the
/// variable is unset or empty.
[[nodiscard]] std::string trace_html_path(std::string_view pinned);

/// The line a failure adds for the page: "the trace as a page: PATH", or why
/// it could not be written (`error`); "" when `path` is "".
[[nodiscard]] std::string trace_html_line(const std::string& path, const std::string& error);

/// The violation message: what broke, the table, the page line, and
/// `pin`: the pinned test's paragraph (`pin_paragraph`) or why there is
/// none (`no_pin_paragraph`).
[[nodiscard]] std::string violation_message(const ExploreResult& result, const std::string& table,
                                            const std::string& page_line, const std::string& pin);

/// "Pin it with this test, ..." and `pinned`.
[[nodiscard]] std::string pin_paragraph(const std::string& pinned);

/// Why no pinned test is printed (`why`), and how to name the system's
/// expression in `framework`'s glue so one is.
[[nodiscard]] std::string no_pin_paragraph(core::Framework framework, const std::string& why);

/// How a pinned test builds `sys`'s type when the caller did not say:
/// `S{}` when a default-built `S` replays `trace` to the same end as `sys`
/// does; else "" and, in `why`, what stops it.
template <System S>
std::string default_system_expr(S& sys, const Trace& trace, std::string& why) {
  const std::string type = core::type_name<S>();
  if (core::is_local_type<S>()) {
    why = "the system's type `" + type +
          "` is local to a function, and a test pasted at namespace scope cannot name it; "
          "declare the adapter at namespace scope";
    return {};
  }
  if constexpr (!std::is_default_constructible_v<S>) {
    why = "`" + type +
          "` has no default constructor and merilo does not know how the system "
          "was built";
    return {};
  } else {
    S fresh{};
    const std::string theirs = replay(sys, trace).summary();
    const std::string ours = replay(fresh, trace).summary();
    if (ours == theirs) return type + "{}";
    why = "`" + type + "{}` does not break the rule along this trace (" + ours +
          "): the system that did was configured by a member or a constructor argument, and a "
          "pinned test that built `" +
          type + "{}` would pass while the bug is there";
    return {};
  }
}

/// The message of a search that stopped at `options.max_states`.
[[nodiscard]] std::string incomplete_message(const ExploreOptions& options,
                                             const ExploreResult& result);

/// The message of a complete search that never reached a sometimes property.
[[nodiscard]] std::string unreached_message(const ExploreResult& result);

/// The message of a replay that did not do what the glue expected.
[[nodiscard]] std::string replay_message(const Trace& trace, const std::string& what,
                                         const std::string& table);

/// The name of the pinned test's test case, without any syntax.
[[nodiscard]] std::string pinned_name(core::Framework framework, std::string_view test,
                                      ViolationKind kind);

}  // namespace detail

template <System S>
std::string explore_failure(S& sys, const ExploreOptions& options, const ExploreResult& result,
                            core::Framework framework, std::string_view test,
                            std::string system_expr) {
  if (!result.error.empty()) return result.error;
  if (result.violation.found()) {
    const Violation& v = result.violation;
    std::string why;
    if (system_expr.empty()) system_expr = detail::default_system_expr(sys, v.trace, why);
    const std::string pinned = system_expr.empty()
                                   ? std::string()
                                   : pinned_test(framework, test, v.kind, system_expr, v.trace);
    const std::string path = detail::trace_html_path(detail::pinned_name(framework, test, v.kind));
    std::string page_error;
    if (!path.empty()) {
      page_error = write_trace_html(sys, v.trace, path,
                                    {.title = std::string(test) + ": " + v.summary(),
                                     .context = result.summary(),
                                     .pinned_test = pinned});
    }
    return detail::violation_message(
        result, format(sys, v.trace), detail::trace_html_line(path, page_error),
        pinned.empty() ? detail::no_pin_paragraph(framework, why) : detail::pin_paragraph(pinned));
  }
  if (options.require_complete && !result.complete) {
    return detail::incomplete_message(options, result);
  }
  if (!result.unreached().empty()) return detail::unreached_message(result);
  return {};
}

template <System S>
std::string replay_ok_failure(S& sys, const Trace& trace) {
  const Replayed r = replay(sys, trace);
  if (r.ok()) return {};
  return detail::replay_message(trace, r.summary(), format(sys, trace));
}

template <System S>
std::string replay_finds_failure(S& sys, const Trace& trace, ViolationKind kind) {
  const Replayed r = replay(sys, trace);
  if (r.error.empty() && r.violation.kind == kind && r.violation.trace == trace) return {};
  return detail::replay_message(trace,
                                "expected " + std::string(name(kind)) + " at step " +
                                    std::to_string(trace.size()) + ", got: " + r.summary(),
                                format(sys, trace));
}

}  // namespace merilo::explore

#endif  // MERILO_EXPLORE_FRAMEWORK_HPP
