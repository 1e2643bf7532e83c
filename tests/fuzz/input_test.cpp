// input_test.cpp — the fuzz input format: mask bits, varints, the choice
// rule and to_fuzz_bytes.
#include <merilo/fuzz/input.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

namespace fz = merilo::fuzz;
using Bytes = std::vector<std::uint8_t>;

TEST(FuzzInput, MaskTakesOneBitPerKindRoundedUpToBytes) {
  EXPECT_EQ(fz::mask_bytes(0), 0u);
  EXPECT_EQ(fz::mask_bytes(1), 1u);
  EXPECT_EQ(fz::mask_bytes(8), 1u);
  EXPECT_EQ(fz::mask_bytes(9), 2u);
}

TEST(FuzzInput, MaskBitKOfByteKDiv8KeepsKindKOut) {
  const Bytes b = {0b0000'0101, 0b0000'0010};
  fz::Input in(b, 12);
  EXPECT_TRUE(in.masked(0));
  EXPECT_FALSE(in.masked(1));
  EXPECT_TRUE(in.masked(2));
  EXPECT_TRUE(in.masked(9));
  EXPECT_FALSE(in.masked(8));
  EXPECT_FALSE(in.masked(11));
}

TEST(FuzzInput, AnInputShorterThanItsMaskReadsTheMissingBytesAsZero) {
  const Bytes b = {0xFF};
  fz::Input in(b, 16);
  EXPECT_TRUE(in.masked(7));
  EXPECT_FALSE(in.masked(8));
  std::uint64_t v = 0;
  EXPECT_FALSE(in.next(v));
  fz::Input empty({}, 16);
  EXPECT_FALSE(empty.masked(0));
  EXPECT_FALSE(empty.next(v));
}

TEST(FuzzInput, ChoicesAreUnsignedLeb128Varints) {
  const Bytes b = {0x00, 0x05, 0xAC, 0x02, 0xFF, 0xFF, 0xFF,
                   0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01};
  fz::Input in(b, 3);  // one mask byte
  std::uint64_t v = 0;
  ASSERT_TRUE(in.next(v));
  EXPECT_EQ(v, 5u);
  ASSERT_TRUE(in.next(v));
  EXPECT_EQ(v, 300u);
  ASSERT_TRUE(in.next(v));
  EXPECT_EQ(v, UINT64_MAX);
  EXPECT_FALSE(in.next(v));
  EXPECT_EQ(in.consumed(), b.size());
}

TEST(FuzzInput, BitsOfAVarintBeyondThe64thAreIgnored) {
  // Twelve continuation bytes of 0x81, then 0x00: bits past 64 are dropped.
  Bytes b = {0x00};
  for (int i = 0; i < 12; ++i) b.push_back(0x81);
  b.push_back(0x00);
  fz::Input in(b, 1);
  std::uint64_t v = 0;
  ASSERT_TRUE(in.next(v));
  std::uint64_t want = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) want |= std::uint64_t{1} << shift;
  EXPECT_EQ(v, want);
}

TEST(FuzzInput, AVarintCutOffByTheEndIsDropped) {
  const Bytes b = {0x00, 0x02, 0x80, 0x80};
  fz::Input in(b, 4);
  std::uint64_t v = 0;
  ASSERT_TRUE(in.next(v));
  EXPECT_EQ(v, 2u);
  EXPECT_FALSE(in.next(v));
  EXPECT_FALSE(in.next(v));
}

TEST(FuzzInput, AChoiceNamingACandidateIsTakenAsItIs) {
  const std::vector<merilo::explore::Kind> c = {0, 2, 3};
  EXPECT_EQ(fz::choose(0, c), 0u);
  EXPECT_EQ(fz::choose(2, c), 2u);
  EXPECT_EQ(fz::choose(3, c), 3u);
}

TEST(FuzzInput, AnyOtherChoicePicksACandidateByIndexModuloTheirCount) {
  const std::vector<merilo::explore::Kind> c = {0, 2, 3};
  EXPECT_EQ(fz::choose(1, c), 2u);  // 1 % 3 = 1 -> c[1]
  EXPECT_EQ(fz::choose(4, c), 2u);  // 4 % 3 = 1
  EXPECT_EQ(fz::choose(5, c), 3u);  // 5 % 3 = 2
  EXPECT_EQ(fz::choose(6, c), 0u);
  EXPECT_EQ(fz::choose(UINT64_MAX, c), c[UINT64_MAX % 3]);
}

TEST(FuzzInput, ToFuzzBytesWritesAZeroMaskAndTheKindsAsVarints) {
  const fz::FuzzBytes b = fz::to_fuzz_bytes(10, {0, 9, 3});
  ASSERT_TRUE(b.ok()) << b.error;
  EXPECT_EQ(b.bytes, (Bytes{0x00, 0x00, 0x00, 0x09, 0x03}));
  const fz::FuzzBytes big = fz::to_fuzz_bytes(300, {299});
  ASSERT_EQ(big.bytes.size(), 38u + 2u);  // 300 kinds: 38 mask bytes
  EXPECT_EQ(big.bytes[37], 0u);
  EXPECT_EQ(big.bytes[38], 0xABu);  // 299 = 0b10'0010'1011
  EXPECT_EQ(big.bytes[39], 0x02u);
}

TEST(FuzzInput, ToFuzzBytesRefusesAKindOutOfRangeNamingTheStep) {
  const fz::FuzzBytes b = fz::to_fuzz_bytes(2, {0, 1, 2});
  EXPECT_FALSE(b.ok());
  EXPECT_TRUE(b.bytes.empty());
  EXPECT_NE(b.error.find("step 3 takes kind 2 but the system has 2 kinds"), std::string::npos)
      << b.error;
}

TEST(FuzzInput, EncodedKindsDecodeToThemselves) {
  std::vector<merilo::explore::Kind> trace;
  std::uint64_t x = 0x9E3779B97F4A7C15ULL;  // fixed seed: the test is deterministic
  for (int i = 0; i < 200; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    trace.push_back(static_cast<merilo::explore::Kind>(x % 1000));
  }
  const fz::FuzzBytes b = fz::to_fuzz_bytes(1000, trace);
  ASSERT_TRUE(b.ok());
  fz::Input in(b.bytes, 1000);
  for (merilo::explore::Kind k : trace) {
    std::uint64_t v = 0;
    ASSERT_TRUE(in.next(v));
    EXPECT_EQ(v, k);
  }
  std::uint64_t v = 0;
  EXPECT_FALSE(in.next(v));
}

}  // namespace
