// merilo/statem/detail/report.hpp — the text of a statem report, laid out by
// non-template code compiled once (statem/src/report.cpp). Included by
// statem.hpp after its vocabulary types; not meant to be included alone.
#ifndef MERILO_STATEM_DETAIL_REPORT_HPP
#define MERILO_STATEM_DETAIL_REPORT_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace merilo::statem::detail {

/// A `Failure` with its commands already printed.
struct ReportInput {
  std::uint64_t seed = 0;
  std::size_t run = 0;
  std::size_t max_commands = 0;
  std::size_t max_shrinks = 0;
  std::size_t shrink_retries = 0;
  Violation violation;
  Violation original_violation;
  std::vector<std::string> original;
  std::vector<std::string> shrunk;
  Stage stage = Stage::command;
  std::size_t step = 0;
  Stage original_stage = Stage::command;
  std::size_t original_step = 0;
  std::size_t shrinks = 0;
  std::size_t candidates = 0;
  std::size_t inadmissible = 0;
  ShrinkEnd end = ShrinkEnd::converged;
};

/// The report text for `in`.
[[nodiscard]] std::string render_report(const ReportInput& in);

/// The `statem.crash` violation for an exception escaping `callback`.
[[nodiscard]] Violation crash(std::string_view callback, std::string_view what);

/// The `statem.precondition` violation for command `step`, printed `cmd`.
[[nodiscard]] Violation inadmissible(std::size_t step, std::string_view cmd);

/// The usage error of `config`, or "" when it can run.
[[nodiscard]] std::string validate(const Config& config, bool needs_test_count);

}  // namespace merilo::statem::detail

#endif  // MERILO_STATEM_DETAIL_REPORT_HPP
