// checker.cpp — the words and numbers merilo-lincheck's output is made of.
#include "checker.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace merilo::lincheck {

std::string counted_text(const std::string& n, const std::string& noun) {
  if (n == "1") return "1 " + noun;
  return n + " " + noun + (noun.ends_with("s") ? "es" : "s");
}
std::string counted(std::size_t n, const std::string& noun) {
  return counted_text(std::to_string(n), noun);
}

std::string thousands(std::uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

const char* completion_name(Completion c) {
  switch (c) {
    case Completion::ok:
      return "ok";
    case Completion::fail:
      return "fail";
    case Completion::info:
      return "info";
    case Completion::missing:
      return "never completed";
  }
  return "?";
}

}  // namespace merilo::lincheck
