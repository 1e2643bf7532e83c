// merilo/core/type_name.hpp — the name of a type as the compiler spells it,
// for the paste-ready tests that failures print.
//
// Example:
//
//   merilo::core::type_name<turnstile::System<>>();  // "turnstile::System<turnstile::Bug::none>"
#ifndef MERILO_CORE_TYPE_NAME_HPP
#define MERILO_CORE_TYPE_NAME_HPP

#include <string>       // the result
#include <string_view>  // reading __PRETTY_FUNCTION__

namespace merilo::core {

/// The name of `T` as g++ and clang++ spell it in `__PRETTY_FUNCTION__`,
/// e.g. "turnstile::System"; "System" where it cannot be read.
template <class T>
std::string type_name() {
  std::string_view f = __PRETTY_FUNCTION__;
  const std::string_view key = "T = ";
  auto start = f.find(key);
  if (start == std::string_view::npos) return "System";
  start += key.size();
  auto end = f.find_first_of(";]", start);
  return std::string(f.substr(start, end - start));
}

}  // namespace merilo::core

#endif  // MERILO_CORE_TYPE_NAME_HPP
