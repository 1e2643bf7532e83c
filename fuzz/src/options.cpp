// options.cpp — the usage errors for fuzz options: a missing max_depth, and
// seeding without a search bound.
#include <cstddef>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include <merilo/fuzz/run.hpp>
#include <merilo/fuzz/target.hpp>

namespace merilo::fuzz::detail {

std::string check_max_depth(std::size_t max_depth) {
  if (max_depth == 0) {
    return "merilo: fuzz max_depth is required (the most steps one input takes, drain "
           "included); it has no default";
  }
  return {};
}

std::string check_target(const TargetOptions& options, bool seeding) {
  std::string error = check_max_depth(options.max_depth);
  if (error.empty() && seeding && options.explore.max_states == 0) {
    error = fmt::format(
        "merilo: fuzz target {}: seeding needs TargetOptions::explore.max_states (the bound of "
        "the search whose shortest schedules become the seeds); it has no default",
        options.name);
  }
  return error.empty() ? error : error + "\n";
}

}  // namespace merilo::fuzz::detail
