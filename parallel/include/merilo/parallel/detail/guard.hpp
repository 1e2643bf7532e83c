// merilo/parallel/detail/guard.hpp — running a user callback so that an
// exception escaping it becomes a `statem.crash` violation.
#ifndef MERILO_PARALLEL_DETAIL_GUARD_HPP
#define MERILO_PARALLEL_DETAIL_GUARD_HPP

#include <exception>  // std::current_exception
#include <string>

#include <merilo/core/crash.hpp>     // crash_detail
#include <merilo/parallel/spec.hpp>  // MaybeViolation
#include <merilo/statem/statem.hpp>  // kCrashTag

namespace merilo::parallel::detail {

/// A `statem.crash` violation for the exception being handled, naming
/// `callback`.
inline statem::Violation crash(const char* callback) {
  return statem::Violation{std::string(statem::kCrashTag),
                           core::crash_detail(callback, std::current_exception())};
}

/// Runs `f`; an exception escaping it is stored in `out` as a crash of
/// `callback`. Returns whether `f` completed.
template <class F>
bool guarded(const char* callback, MaybeViolation& out, F&& f) {
  try {
    f();
    return true;
  } catch (...) {
    out = crash(callback);
    return false;
  }
}

}  // namespace merilo::parallel::detail

#endif  // MERILO_PARALLEL_DETAIL_GUARD_HPP
