// merilo/statem/detail/report.hpp — the text of a statem report and statem's
// usage errors, laid out by non-template code compiled once
// (statem/src/report.cpp). Included by statem.hpp after its vocabulary
// types; not meant to be included alone.
#ifndef MERILO_STATEM_DETAIL_REPORT_HPP
#define MERILO_STATEM_DETAIL_REPORT_HPP

#include <cstddef>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

namespace merilo::statem::detail {

/// The report text for `info` and its two lists, already described.
[[nodiscard]] std::string render_report(const FailureInfo& info,
                                        const std::vector<std::string>& original,
                                        const std::vector<std::string>& shrunk);

/// The `statem.precondition` violation for command `step`, described `cmd`.
[[nodiscard]] Violation inadmissible(std::size_t step, std::string_view cmd);

/// The usage error of `config`, or "" when it can run.
[[nodiscard]] std::string validate(const CheckConfig& config, bool needs_test_count);

/// The usage error of a generator `command()` returned that cannot draw.
[[nodiscard]] std::string invalid_generator(std::string_view why);

/// The health failure of a check whose runs were mostly starved.
[[nodiscard]] std::string unhealthy(std::size_t starved, std::size_t runs);

}  // namespace merilo::statem::detail

#endif  // MERILO_STATEM_DETAIL_REPORT_HPP
