// number.hpp — an unsigned number of 1024 bits held as 16 words of 64 bits,
// so a machine that holds one stays a plain value that `==` compares and
// whose bytes are its value.
//
// Only what the Fibonacci machine needs: build one from a 64-bit value, add
// two with carry (refusing a sum that does not fit), read the words.
//
//   auto [sum, ok] = fib::Number::of(1).plus(fib::Number::of(2));
//   // ok == true, sum == fib::Number::of(3)
//
// NOTE: the arithmetic uses 64-bit words only (no 128-bit type), so it is
// the same on 32-bit targets.
#ifndef MERILO_EXAMPLES_FIB_NUMBER_HPP
#define MERILO_EXAMPLES_FIB_NUMBER_HPP

#include <array>
#include <cstddef>
#include <cstdint>

namespace fib {

struct NumberSum;  // below: what Number::plus returns

/// An unsigned 1024-bit number, least significant word first.
class Number {
 public:
  /// How many 64-bit words a number holds.
  static constexpr std::size_t kWords = 16;
  /// How many bits a number holds.
  static constexpr std::size_t kBits = kWords * 64;

  /// Zero.
  constexpr Number() noexcept = default;

  /// The number `value`.
  [[nodiscard]] static constexpr Number of(std::uint64_t value) noexcept {
    Number n;
    n.words_[0] = value;
    return n;
  }

  /// The number whose words are `words`, least significant first.
  [[nodiscard]] static constexpr Number from_words(
      const std::array<std::uint64_t, kWords>& words) noexcept {
    Number n;
    n.words_ = words;
    return n;
  }

  /// `*this + other`, or `ok == false` when the sum needs more than
  /// `kBits` bits (the number returned is then `*this`, unchanged).
  [[nodiscard]] constexpr NumberSum plus(const Number& other) const noexcept;

  /// Word `i` (0 is the least significant).
  [[nodiscard]] constexpr std::uint64_t word(std::size_t i) const noexcept { return words_[i]; }
  /// All the words, least significant first.
  [[nodiscard]] constexpr const std::array<std::uint64_t, kWords>& words() const noexcept {
    return words_;
  }
  /// Whether the number is 0.
  [[nodiscard]] constexpr bool is_zero() const noexcept {
    for (const std::uint64_t w : words_) {
      if (w != 0) return false;
    }
    return true;
  }

  /// Same value.
  friend constexpr bool operator==(const Number&, const Number&) noexcept = default;

 private:
  std::array<std::uint64_t, kWords> words_{};
};

/// What `Number::plus` returns: the sum, and whether it fitted.
struct [[nodiscard]] NumberSum {
  Number sum;
  bool ok;
};

constexpr NumberSum Number::plus(const Number& other) const noexcept {
  Number out;
  std::uint64_t carry = 0;
  for (std::size_t i = 0; i < kWords; ++i) {
    const std::uint64_t partial = words_[i] + other.words_[i];
    const std::uint64_t carry_in = partial < words_[i] ? 1U : 0U;
    out.words_[i] = partial + carry;
    const std::uint64_t carry_out = out.words_[i] < partial ? 1U : 0U;
    carry = carry_in | carry_out;
  }
  if (carry != 0) return NumberSum{*this, false};
  return NumberSum{out, true};
}

}  // namespace fib

#endif  // MERILO_EXAMPLES_FIB_NUMBER_HPP
