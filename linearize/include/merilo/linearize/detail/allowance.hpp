// merilo/linearize/detail/allowance.hpp — what is left of one check's budget and time.
#ifndef MERILO_LINEARIZE_DETAIL_ALLOWANCE_HPP
#define MERILO_LINEARIZE_DETAIL_ALLOWANCE_HPP

#include <chrono>
#include <cstdint>

#include <merilo/linearize/history.hpp>

namespace merilo::linearize::detail {

/// Shared by every part of one check: what is left of the budget and time.
struct Allowance {
  std::uint64_t budget = 0;
  std::uint64_t evaluations = 0;
  std::chrono::steady_clock::time_point deadline{};
  bool has_deadline = false;
  SearchStop stop = SearchStop::none;

  /// Spends one evaluation; false (with `stop` set) when none is left.
  bool spend() {
    if (evaluations >= budget) {
      stop = SearchStop::budget;
      return false;
    }
    ++evaluations;
    if (has_deadline && (evaluations & 4095U) == 0 &&
        std::chrono::steady_clock::now() >= deadline) {
      stop = SearchStop::timeout;
      return false;
    }
    return true;
  }
};

}  // namespace merilo::linearize::detail

#endif  // MERILO_LINEARIZE_DETAIL_ALLOWANCE_HPP
