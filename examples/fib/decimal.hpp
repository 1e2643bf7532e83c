// decimal.hpp — a `fib::Number` written in decimal, for people.
//
//   fib::decimal(fib::Number::of(1234))  // "1234"
//
// NOTE: the division by 10^9 works on 32-bit halves of each word, so it
// needs no 128-bit type and gives the same text on 32-bit targets.
#ifndef MERILO_EXAMPLES_FIB_DECIMAL_HPP
#define MERILO_EXAMPLES_FIB_DECIMAL_HPP

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include <fib/number.hpp>

namespace fib {

/// `n` in decimal, without leading zeros ("0" for zero).
[[nodiscard]] inline std::string decimal(const Number& n) {
  constexpr std::uint64_t kChunk = 1'000'000'000;  // 10^9 < 2^30
  std::array<std::uint64_t, Number::kWords> words = n.words();
  std::string digits;  // least significant first
  const auto is_zero = [&words] {
    return std::all_of(words.begin(), words.end(), [](std::uint64_t w) { return w == 0; });
  };
  while (!is_zero()) {
    // words /= 10^9, remainder in `rem`; rem < 2^30, so rem * 2^32 + half < 2^62.
    std::uint64_t rem = 0;
    for (std::size_t i = Number::kWords; i-- > 0;) {
      const std::uint64_t high = (rem << 32) | (words[i] >> 32);
      const std::uint64_t q_high = high / kChunk;
      rem = high % kChunk;
      const std::uint64_t low = (rem << 32) | (words[i] & 0xFFFF'FFFFU);
      const std::uint64_t q_low = low / kChunk;
      rem = low % kChunk;
      words[i] = (q_high << 32) | q_low;
    }
    for (int d = 0; d < 9; ++d) {
      digits.push_back(static_cast<char>('0' + rem % 10));
      rem /= 10;
    }
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  if (digits.empty()) digits.push_back('0');
  std::reverse(digits.begin(), digits.end());
  return digits;
}

}  // namespace fib

#endif  // MERILO_EXAMPLES_FIB_DECIMAL_HPP
