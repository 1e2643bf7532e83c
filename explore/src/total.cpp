// total.cpp — the totality rules `total()` checks for each state–event
// pair, and the text of its report.
#include <cstddef>
#include <string>

#include <fmt/format.h>

#include <merilo/explore/total.hpp>

namespace merilo::explore {

std::string TotalResult::report() const {
  if (ok()) return fmt::format("total: {} pairs, all handled", pairs);
  return fmt::format("total: {} of {} pairs broke a rule:\n  {}", problems.size(), pairs,
                     fmt::join(problems, "\n  "));
}

namespace detail {

std::string total_problem(std::size_t m, std::size_t e, TotalCell cell) {
  using fsm::Outcome;
  if (m == 0 || e == 0) {
    const char* zero = m == 0 ? "the zero machine" : "the zero event";
    if (cell.outcome != Outcome::invalid) {
      return fmt::format("{} must be refused as invalid, got {}", zero, fsm::name(cell.outcome));
    }
    if (!cell.unchanged) return fmt::format("{} was refused but changed the machine", zero);
    return {};
  }
  switch (cell.outcome) {
    case Outcome::moved:
      return {};
    case Outcome::ignored:
    case Outcome::rejected:
      if (!cell.unchanged) {
        return fmt::format("{} but changed the machine or returned actions",
                           fsm::name(cell.outcome));
      }
      return {};
    case Outcome::invalid:
      return "a real state and event must not be invalid";
    case Outcome::none:
      return "returned the unset outcome none";
  }
  return fmt::format("returned an out-of-range outcome {}", static_cast<unsigned>(cell.outcome));
}

}  // namespace detail
}  // namespace merilo::explore
