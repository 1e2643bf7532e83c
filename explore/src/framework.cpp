// framework.cpp — the text every test framework's glue fails with: pinned
// tests in each framework's syntax, violation and replay messages, and where
// the trace page goes.
#include <merilo/explore/framework.hpp>

#include <cctype>
#include <cstdlib>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include <merilo/core/type_name.hpp>  // test_identifier, string_literal

namespace merilo::explore {

std::string pinned_test(core::Framework framework, std::string_view test, ViolationKind kind,
                        std::string_view system_expr, const Trace& trace) {
  const std::string name = detail::pinned_name(framework, test, kind);
  if (framework == core::Framework::googletest) {
    return replay_test("Replay", name, std::string(system_expr), trace);
  }
  // The name as literals short enough per line that Catch2's console
  // reporter, which wraps long lines, cannot break one.
  return fmt::format(
      "TEST_CASE({}) {{\n"
      "  auto sys = {};\n"
      "  {}::expect_replay_ok(sys, merilo::explore::Trace{});\n"
      "}}\n",
      core::string_literal(name, "    "), system_expr, core::glue_namespace(framework),
      to_string(trace));
}

namespace detail {

std::string pinned_name(core::Framework framework, std::string_view test, ViolationKind kind) {
  // A GoogleTest name is an identifier: TEST_P's "Name/0" is not one.
  if (framework == core::Framework::googletest) {
    return core::test_identifier(replay_test_name(test, kind));
  }
  return core::pinned_case_name(test, name(kind));
}

std::string trace_html_path(std::string_view pinned) {
  const char* dir = std::getenv("MERILO_TRACE_HTML");
  if (dir == nullptr || *dir == '\0') return {};
  std::string file;
  for (const char c : pinned) {
    const bool keep = std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-';
    file += keep ? c : '_';
  }
  if (file.empty()) file = "trace";
  std::string path(dir);
  if (path.back() != '/') path += '/';
  return path + file + ".html";
}

std::string trace_html_line(const std::string& path, const std::string& error) {
  if (path.empty()) return {};
  if (!error.empty()) return fmt::format("\nThe trace page was not written: {}\n", error);
  return fmt::format("\nThe trace as a page: {}\n", path);
}

std::string violation_message(const ExploreResult& result, const std::string& table,
                              const std::string& page_line, const std::string& pin) {
  return fmt::format("merilo found a violation: {}\n\n{}{}{}", result.violation.summary(), table,
                     page_line, pin);
}

std::string pin_paragraph(const std::string& pinned) {
  return "\nPin it with this test, which fails while the bug is there:\n\n" + pinned;
}

std::string no_pin_paragraph(core::Framework framework, const std::string& why) {
  return fmt::format(
      "\nNo pinned test is printed: {}. Name the system's expression and the pinned test builds "
      "it so:\n  {}::explore(MERILO_EXPR(YourSystem{{...}}), options);\n",
      why, core::glue_namespace(framework));
}

std::string incomplete_message(const ExploreOptions& options, const ExploreResult& result) {
  return fmt::format(
      "merilo: the search stopped at max_states={} before checking every world (every world "
      "within depth {} was checked); raise max_states or shrink the system\n{}",
      options.max_states, result.depth, result.summary());
}

std::string unreached_message(const ExploreResult& result) {
  std::string names;
  for (const std::string& n : result.unreached()) {
    names += fmt::format("{}\"{}\"", names.empty() ? "" : ", ", n);
  }
  return fmt::format(
      "merilo: the search checked every reachable world and none satisfied the sometimes "
      "property {}: an invariant that only such worlds would test passes vacuously\n{}",
      names, result.summary());
}

std::string replay_message(const Trace& trace, const std::string& what, const std::string& table) {
  return fmt::format("replay of {}: {}\n\n{}", to_string(trace), what, table);
}

}  // namespace detail
}  // namespace merilo::explore
