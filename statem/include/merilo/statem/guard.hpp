// merilo/statem/guard.hpp — calling user code so that an exception becomes a
// `statem.crash` violation.
//
// statem and the parallel tester call a spec's callbacks (`initial`,
// `command`, `execute`/`run`, `postcondition`, `finish`, ...) and must never
// let an exception escape. `guarded` runs one callback and, when something
// escapes, stores the one crash violation both report:
// tag `statem.crash`, detail "<callback> threw: <what()>".
//
// Example:
//
//   merilo::statem::MaybeViolation crash;
//   if (!merilo::statem::guarded("execute", crash, [&] { sut.push(1); })) {
//     // *crash == Violation{"statem.crash", "execute threw: queue full"}
//   }
#ifndef MERILO_STATEM_GUARD_HPP
#define MERILO_STATEM_GUARD_HPP

#include <exception>    // std::exception_ptr, std::current_exception
#include <string>       // Violation
#include <string_view>  // the callback's name

#include <merilo/statem/violation.hpp>  // Violation, MaybeViolation, kCrashTag

namespace merilo::statem {

/// The `statem.crash` violation for `error`, which escaped `callback`.
[[nodiscard]] Violation crash_violation(std::string_view callback, std::exception_ptr error);

/// Runs `f()`. When an exception escapes it, stores its crash violation
/// (naming `callback`) in `out` and returns false; otherwise returns true.
template <class F>
bool guarded(std::string_view callback, MaybeViolation& out, F&& f) noexcept {
  try {
    f();
    return true;
  } catch (...) {
    try {
      out = crash_violation(callback, std::current_exception());
    } catch (...) {  // the message itself could not be built
      out = Violation{std::string(kCrashTag), std::string(callback)};
    }
  }
  return false;
}

}  // namespace merilo::statem

#endif  // MERILO_STATEM_GUARD_HPP
