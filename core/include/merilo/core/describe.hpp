// merilo/core/describe.hpp — one way to turn a user's value into text.
//
// Reports print the user's values: statem's and parallel's commands and
// responses, a machine's events and states, a model. `describe(x)` is the
// one customization point they all go through, so a type made printable
// once prints the same in every report. In order, it uses
//
//   1. `merilo_describe(x)`, a free function found by argument-dependent
//      lookup (put it in your type's namespace), returning a `std::string`;
//   2. for an enum, `name(x)` found the same way (the convention of
//      merilo's examples), else its number;
//   3. built-in text for bool, characters, numbers and strings (quoted);
//   4. `std::optional`, `std::pair`, `std::tuple` and ranges (`[a, b]`),
//      element by element;
//   5. `os << x` where an `operator<<` for `std::ostream` exists.
//
// A type none of these fits is a compile error naming `Describable`.
// fmt users add one line: `std::string merilo_describe(const T& x) {
// return fmt::format("{}", x); }`.
//
// Example:
//
//   namespace shop {
//   struct Item { int sku; };
//   inline std::string merilo_describe(const Item& i) { return "sku " + std::to_string(i.sku); }
//   }  // namespace shop
//
//   merilo::core::describe(std::vector<shop::Item>{{1}, {2}});  // "[sku 1, sku 2]"
#ifndef MERILO_CORE_DESCRIBE_HPP
#define MERILO_CORE_DESCRIBE_HPP

#include <charconv>     // std::to_chars for floating point
#include <concepts>     // std::convertible_to
#include <cstddef>      // std::size_t
#include <optional>     // std::optional
#include <ostream>      // the operator<< fallback
#include <ranges>       // ranges
#include <sstream>      // the operator<< fallback
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <tuple>        // std::tuple_size, std::apply
#include <type_traits>  // std::is_enum_v
#include <utility>      // std::pair

#include <merilo/core/traits.hpp>  // is_optional_v

namespace merilo::core {

namespace detail {

template <class T>
concept HasMeriloDescribe = requires(const T& x) {
  { merilo_describe(x) } -> std::convertible_to<std::string>;
};

template <class T>
concept EnumWithName = std::is_enum_v<T> && requires(const T& x) {
  { name(x) } -> std::convertible_to<std::string_view>;
};

template <class T>
concept StringLike = std::convertible_to<const T&, std::string_view>;

template <class T>
concept Streamable = requires(std::ostream& os, const T& x) {
  os << x;
};

template <class T>
concept TupleLike = requires {
  std::tuple_size<T>::value;
}
&&!std::ranges::range<T>;

std::string quote(std::string_view s);
std::string number(double x);

}  // namespace detail

/// Whether `describe(x)` compiles for a `T`: see the header overview.
template <class T>
concept Describable = detail::HasMeriloDescribe<T> || std::is_enum_v<T> ||
    std::is_arithmetic_v<T> || detail::StringLike<T> || core::is_optional_v<T> ||
    detail::TupleLike<T> || std::ranges::input_range<const T> || detail::Streamable<T>;

/// Text for `x`, chosen as the header overview says.
template <class T>
requires Describable<T>
[[nodiscard]] std::string describe(const T& x) {
  if constexpr (detail::HasMeriloDescribe<T>) {
    return std::string(merilo_describe(x));
  } else if constexpr (detail::EnumWithName<T>) {
    return std::string(std::string_view(name(x)));
  } else if constexpr (std::is_enum_v<T>) {
    return std::to_string(static_cast<long long>(x));
  } else if constexpr (std::is_same_v<T, bool>) {
    return x ? "true" : "false";
  } else if constexpr (std::is_same_v<T, char>) {
    return detail::quote(std::string_view(&x, 1));
  } else if constexpr (std::is_integral_v<T>) {
    return std::to_string(x);
  } else if constexpr (std::is_floating_point_v<T>) {
    return detail::number(static_cast<double>(x));
  } else if constexpr (detail::StringLike<T>) {
    return detail::quote(std::string_view(x));
  } else if constexpr (core::is_optional_v<T>) {
    return x ? describe(*x) : std::string("nullopt");
  } else if constexpr (detail::TupleLike<T>) {
    std::string out = "(";
    std::apply(
        [&](const auto&... e) {
          std::size_t i = 0;
          ((out += (i++ == 0 ? "" : ", ") + describe(e)), ...);
        },
        x);
    return out + ")";
  } else if constexpr (std::ranges::input_range<const T>) {
    std::string out = "[";
    bool first = true;
    for (const auto& e : x) {
      if (!first) out += ", ";
      first = false;
      out += describe(e);
    }
    return out + "]";
  } else {
    std::ostringstream os;
    os << x;
    return std::move(os).str();
  }
}

}  // namespace merilo::core

#endif  // MERILO_CORE_DESCRIBE_HPP
