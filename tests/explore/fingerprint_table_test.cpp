// The visited set's bucket choice on targets without a 128-bit integer.
#include <merilo/explore/detail/fingerprint_table.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>

namespace {

using merilo::explore::detail::mul_high_by_halves;

TEST(FingerprintTable, HighWordByHalvesIsRightAtTheEdges) {
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  static_assert(mul_high_by_halves(kMax, kMax) == kMax - 1);
  static_assert(mul_high_by_halves(kMax, 2) == 1);
  static_assert(mul_high_by_halves(std::uint64_t{1} << 32U, std::uint64_t{1} << 32U) == 1);
  static_assert(mul_high_by_halves(0, kMax) == 0);
  static_assert(mul_high_by_halves(kMax, 1) == 0);
  // And at run time, where the compiler cannot fold it.
  volatile std::uint64_t three = 3;
  EXPECT_EQ(mul_high_by_halves(kMax, three), 2U);
  static_assert(mul_high_by_halves(0xffffffff00000000U, 0xffffffffU) == 0xfffffffeU);
}

#ifdef __SIZEOF_INT128__
TEST(FingerprintTable, HighWordByHalvesMatchesTheWideMultiplyOnRandomWords) {
  __extension__ using Wide = unsigned __int128;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100000; ++i) {
    const std::uint64_t a = rng();
    const std::uint64_t b = (i % 2 == 0) ? rng() : (rng() >> 32U);  // bucket counts are small
    ASSERT_EQ(mul_high_by_halves(a, b),
              static_cast<std::uint64_t>((static_cast<Wide>(a) * b) >> 64U))
        << a << " * " << b;
  }
}
#endif

}  // namespace
