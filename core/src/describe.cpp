// describe.cpp — the non-template parts of describe(): quoting and numbers.
#include <merilo/core/describe.hpp>

#include <merilo/core/text.hpp>

#include <array>
#include <cstdio>

namespace merilo::core::detail {

// Strings are shown as text.hpp quotes them: control characters escaped,
// so a value cannot drive the terminal that shows a report.
std::string quote(std::string_view s) { return quoted(s); }

std::string number(double x) {
  std::array<char, 32> buf{};
  const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), x);
  return std::string(buf.data(), r.ptr);
}

}  // namespace merilo::core::detail
