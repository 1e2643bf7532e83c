// merilo/statem/detail/glue.hpp — the one text every test framework's
// glue (<merilo/gtest.hpp>, catch2.hpp, doctest.hpp) fails a statem test with.
#ifndef MERILO_STATEM_DETAIL_GLUE_HPP
#define MERILO_STATEM_DETAIL_GLUE_HPP

#include <string>

#include <merilo/statem/statem.hpp>

namespace merilo::statem::detail {

/// "" when `r` passed; else its usage error, its failing run's report or
/// its health failure, in that order.
template <class Cmd>
[[nodiscard]] std::string glue_failure(const CheckResult<Cmd>& r) {
  if (!r.error.empty()) return r.error;
  if (r.failure) return statem::report(*r.failure);
  return r.unhealthy;
}

}  // namespace merilo::statem::detail

#endif  // MERILO_STATEM_DETAIL_GLUE_HPP
