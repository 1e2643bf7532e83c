// merilo/core/traits.hpp — small type traits the components share.
//
// Example:
//
//   static_assert(merilo::core::is_optional_v<std::optional<int>>);
//   static_assert(!merilo::core::is_optional_v<int>);
#ifndef MERILO_CORE_TRAITS_HPP
#define MERILO_CORE_TRAITS_HPP

#include <optional>     // std::optional
#include <type_traits>  // std::false_type, std::true_type

namespace merilo::core {

/// Whether `T` is a `std::optional` of something.
template <class T>
struct is_optional : std::false_type {};
/// See the primary template.
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};
/// `is_optional<T>::value`.
template <class T>
inline constexpr bool is_optional_v = is_optional<T>::value;

}  // namespace merilo::core

#endif  // MERILO_CORE_TRAITS_HPP
