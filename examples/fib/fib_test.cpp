// fib_test.cpp — the Fibonacci machine: its numbers, its table, its tail
// call, every value it computes compared with Fibonacci numbers computed
// independently (decimal strings added digit by digit), and the largest n.
#include <merilo/fsm/total.hpp>
#include <merilo/gtest.hpp>

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <fib/decimal.hpp>
#include <fib/fib.hpp>
#include <fib/holder.hpp>

namespace {

using fib::Event;
using fib::Fib;
using fib::Number;
using fib::State;
using merilo::fsm::Outcome;

constexpr std::uint64_t kMax64 = std::numeric_limits<std::uint64_t>::max();

// The largest n whose F(n) the machine computes: it also computes
// F(n + 1) = F(1476) < 2^1024 on the way, and F(1477) > 2^1024 (README.md).
constexpr std::uint64_t kLargest = 1475;

Number all_ones() {
  std::array<std::uint64_t, Number::kWords> w{};
  w.fill(kMax64);
  return Number::from_words(w);
}

// a + b for decimal strings, digit by digit: shares no code with Number.
std::string add_decimal(const std::string& a, const std::string& b) {
  std::string out;
  int carry = 0;
  for (std::size_t i = 0; i < a.size() || i < b.size() || carry != 0; ++i) {
    const int da = i < a.size() ? a[a.size() - 1 - i] - '0' : 0;
    const int db = i < b.size() ? b[b.size() - 1 - i] - '0' : 0;
    const int s = da + db + carry;
    out.insert(out.begin(), static_cast<char>('0' + s % 10));
    carry = s / 10;
  }
  return out;
}

// F(0) .. F(count - 1) in decimal.
std::vector<std::string> fibonacci_decimal(std::size_t count) {
  std::vector<std::string> f{"0", "1"};
  while (f.size() < count) f.push_back(add_decimal(f[f.size() - 2], f[f.size() - 1]));
  return f;
}

TEST(FibNumber, AddsWithCarryAcrossWords) {
  const auto [sum, ok] = Number::of(kMax64).plus(Number::of(1));
  ASSERT_TRUE(ok);
  EXPECT_EQ(sum.word(0), 0u);
  EXPECT_EQ(sum.word(1), 1u);
  // A carry that ripples through every word but the last.
  std::array<std::uint64_t, Number::kWords> w{};
  w.fill(kMax64);
  w.back() = 0;
  const auto [rippled, fits] = Number::from_words(w).plus(Number::of(1));
  ASSERT_TRUE(fits);
  for (std::size_t i = 0; i + 1 < Number::kWords; ++i) EXPECT_EQ(rippled.word(i), 0u) << i;
  EXPECT_EQ(rippled.word(Number::kWords - 1), 1u);
}

TEST(FibNumber, RefusesASumThatDoesNotFitAndKeepsTheNumber) {
  const auto [sum, ok] = all_ones().plus(Number::of(1));
  EXPECT_FALSE(ok);
  EXPECT_EQ(sum, all_ones());
  std::array<std::uint64_t, Number::kWords> top{};
  top.back() = std::uint64_t{1} << 63;  // 2^1023 + 2^1023 = 2^1024
  EXPECT_FALSE(Number::from_words(top).plus(Number::from_words(top)).ok);
  EXPECT_TRUE(all_ones().plus(Number{}).ok);
}

TEST(FibDecimal, WritesKnownNumbers) {
  EXPECT_EQ(fib::decimal(Number{}), "0");
  EXPECT_EQ(fib::decimal(Number::of(7)), "7");
  EXPECT_EQ(fib::decimal(Number::of(1'000'000'000)), "1000000000");
  EXPECT_EQ(fib::decimal(Number::of(kMax64)), "18446744073709551615");
  std::array<std::uint64_t, Number::kWords> w{};
  w[2] = 1;  // 2^128
  EXPECT_EQ(fib::decimal(Number::from_words(w)), "340282366920938463463374607431768211456");
}

TEST(Fib, HandlesEveryEventInEveryState) {
  merilo::fsm::FireTable<Fib, Event> table{
      {Fib{}, Fib::call(0), Fib::call(5), Fib::call(1, all_ones(), Number::of(1)),
       Fib::returned(Number::of(8))},
      {Event::none, Event::step}};
  merilo::testing::expect_total(table);
}

TEST(Fib, EachStepMakesTheTailCall) {
  const auto f = Fib::call(3, Number::of(2), Number::of(3)).fire(Event::step);
  EXPECT_EQ(f.outcome, Outcome::moved);
  EXPECT_EQ(f.next, Fib::call(2, Number::of(3), Number::of(5)));
}

TEST(Fib, ReturnsAWhenNIsZero) {
  const auto f = Fib::call(0, Number::of(21), Number::of(34)).fire(Event::step);
  EXPECT_EQ(f.outcome, Outcome::moved);
  EXPECT_EQ(f.next.state(), State::returned);
  EXPECT_EQ(f.next.result(), Number::of(21));
  EXPECT_EQ(f.next.fire(Event::step).outcome, Outcome::ignored);
}

TEST(Fib, RefusesASumThatDoesNotFitAndStaysAsItWas) {
  const Fib m = Fib::call(1, all_ones(), Number::of(1));
  const auto f = m.fire(Event::step);
  EXPECT_EQ(f.outcome, Outcome::rejected);
  EXPECT_EQ(f.next, m);
}

TEST(Fib, ComputesEveryFibonacciNumberUpToTheLargest) {
  const std::vector<std::string> expected = fibonacci_decimal(kLargest + 1);
  for (std::uint64_t n = 0; n <= kLargest; ++n) {
    const fib::Computed c = fib::compute(n);
    ASSERT_EQ(c.error, "") << n;
    ASSERT_EQ(fib::decimal(c.value), expected[static_cast<std::size_t>(n)]) << n;
    ASSERT_EQ(c.fires, n + 1) << n;
  }
}

TEST(Fib, ComputesF93InOneWordAndF94InTwo) {
  // F(93) is the largest Fibonacci number below 2^64.
  const Number f93 = fib::compute(93).value;
  EXPECT_EQ(f93.word(0), 12'200'160'415'121'876'738u);
  EXPECT_EQ(f93.word(1), 0u);
  const Number f94 = fib::compute(94).value;
  EXPECT_EQ(f94.word(1), 1u);
}

TEST(Fib, TheLargestNIs1475AndThe1476thIsRefused) {
  const fib::Computed largest = fib::compute(kLargest);
  EXPECT_EQ(largest.error, "");
  // F(1475) needs 1023 bits: its top word is not 0.
  EXPECT_NE(largest.value.word(Number::kWords - 1), 0u);
  const fib::Computed refused = fib::compute(kLargest + 1);
  EXPECT_EQ(refused.error,
            "F(1476) cannot be computed in 1024 bits: the step at n = 1 was rejected because "
            "F(1477) does not fit");
  EXPECT_EQ(refused.fires, kLargest + 1);
  EXPECT_TRUE(refused.value.is_zero());
}

TEST(Fib, AHugeNIsRefusedAfterAFewThousandSteps) {
  const fib::Computed c = fib::compute(kMax64);
  EXPECT_NE(c.error, "");
  EXPECT_EQ(c.fires, kLargest + 1);
}

}  // namespace
