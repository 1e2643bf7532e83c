// hash.cpp — XXH3 64 and 128, inlined from xxhash.h.
#include <merilo/core/hash.hpp>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace merilo::core {

namespace {
// Fixed, so hashes are stable across runs, builds and machines.
constexpr XXH64_hash_t kSeed = 0x6d6572696c6f;  // "merilo"
}  // namespace

Hash128 hash128(const void* data, std::size_t size) noexcept {
  const XXH128_hash_t h = XXH3_128bits_withSeed(data, size, kSeed);
  return Hash128{h.low64, h.high64};
}

std::uint64_t hash64(const void* data, std::size_t size, std::uint64_t seed) noexcept {
  return XXH3_64bits_withSeed(data, size, seed);
}

}  // namespace merilo::core
