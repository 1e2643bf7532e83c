// hash.cpp — XXH3-64, inlined from xxhash.h, for model and progress hashes.
#include <merilo/linearize/detail/hash.hpp>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace merilo::linearize::detail {

std::uint64_t hash_bytes(const void* data, std::size_t size, std::uint64_t seed) noexcept {
  return XXH3_64bits_withSeed(data, size, seed);
}

}  // namespace merilo::linearize::detail
