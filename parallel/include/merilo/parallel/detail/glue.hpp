// merilo/parallel/detail/glue.hpp — the one text every test framework's
// parallel glue (gtest.hpp, catch2.hpp, doctest.hpp) fails a test with.
#ifndef MERILO_PARALLEL_DETAIL_GLUE_HPP
#define MERILO_PARALLEL_DETAIL_GLUE_HPP

#include <string>

#include <merilo/parallel/parallel.hpp>

namespace merilo::parallel::detail {

/// "" when `r` passed; else its usage error or its failing run's report.
template <class Cmd, class Resp>
[[nodiscard]] std::string glue_failure(const CheckResult<Cmd, Resp>& r) {
  if (!r.error.empty()) return r.error;
  if (r.failure) return parallel::report(*r.failure);
  return {};
}

}  // namespace merilo::parallel::detail

#endif  // MERILO_PARALLEL_DETAIL_GLUE_HPP
