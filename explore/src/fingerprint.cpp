// fingerprint.cpp — XXH3-128 over a world's bytes, inlined from xxhash.h.
#include <merilo/explore/detail/fingerprint.hpp>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace merilo::explore::detail {

namespace {
// Fixed, so fingerprints are stable across runs, builds and machines.
constexpr XXH64_hash_t kSeed = 0x6d6572696c6f;  // "merilo"
}  // namespace

Fingerprint fingerprint_bytes(const void* data, std::size_t size) noexcept {
  const XXH128_hash_t h = XXH3_128bits_withSeed(data, size, kSeed);
  return Fingerprint{h.low64, h.high64};
}

}  // namespace merilo::explore::detail
