// merilo/core/crash.hpp — turning an exception that escaped user code into text.
//
// merilo never lets an exception from user code escape its entry points: it
// catches it where the callback was called and reports it as a crash (the
// explorer's `crash` violation, statem's and parallel's `statem.crash` tag).
// These functions give every component the same words for it.
//
// Example:
//
//   try {
//     sys.apply(k);
//   } catch (...) {
//     violation.detail = merilo::core::crash_detail("apply", std::current_exception());
//     // "an exception escaped apply: vector::_M_range_check: ..."
//   }
#ifndef MERILO_CORE_CRASH_HPP
#define MERILO_CORE_CRASH_HPP

#include <exception>  // std::exception_ptr
#include <string>

namespace merilo::core {

/// The exception's `what()`, or "an exception not derived from
/// std::exception" for any other thrown type. Never throws (but
/// `std::bad_alloc` while building the string).
[[nodiscard]] std::string exception_text(std::exception_ptr error);

/// "an exception escaped <where>: <what>", or "an exception of unknown type
/// escaped <where>".
[[nodiscard]] std::string crash_detail(const char* where, std::exception_ptr error);

}  // namespace merilo::core

#endif  // MERILO_CORE_CRASH_HPP
