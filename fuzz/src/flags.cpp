// flags.cpp — reading merilo's own -merilo_* flags from a fuzz target's
// command line.
#include <cstddef>
#include <limits>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include <merilo/fuzz/run.hpp>
#include <merilo/fuzz/target.hpp>

namespace merilo::fuzz::detail {

std::string flag(int argc, char** argv, std::string_view name) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.size() > name.size() + 1 && arg[0] == '-' && arg.substr(1, name.size()) == name &&
        arg[name.size() + 1] == '=') {
      return std::string(arg.substr(name.size() + 2));
    }
  }
  return {};
}

std::string parse_max_states(const std::string& value, std::size_t& out) {
  if (value.empty()) return {};
  std::size_t n = 0;
  constexpr std::size_t kMax = std::numeric_limits<std::size_t>::max();
  for (char c : value) {
    const auto digit = static_cast<std::size_t>(c - '0');
    // The overflow check is in size_t's own width, so it holds on 32-bit
    // targets too.
    if (c < '0' || c > '9' || n > (kMax - digit) / 10) {
      return fmt::format("merilo: -merilo_max_states={} is not a number of worlds\n", value);
    }
    n = n * 10 + digit;
  }
  out = n;
  return {};
}

}  // namespace merilo::fuzz::detail
