// merilo/linearize/detail/hash.hpp — XXH3 hashes of models and progress keys,
// on merilo::core's hashing.
#ifndef MERILO_LINEARIZE_DETAIL_HASH_HPP
#define MERILO_LINEARIZE_DETAIL_HASH_HPP

#include <cstddef>
#include <cstdint>

#include <merilo/core/hash.hpp>
#include <merilo/linearize/model.hpp>

namespace merilo::linearize::detail {

using core::ByteBuffer;
using core::mix64;

/// XXH3-64 of `size` bytes at `data` with `seed`.
[[nodiscard]] inline std::uint64_t hash_bytes(const void* data, std::size_t size,
                                              std::uint64_t seed) noexcept {
  return core::hash64(data, size, seed);
}

/// A model's hash, seeded with the hash of the progress it is paired with,
/// and the number of bytes that identify it (the cache's memory estimate).
struct ModelHash {
  std::uint64_t hash = 0;
  std::size_t bytes = 0;
};

template <Model M>
[[nodiscard]] ModelHash hash_model(const M& model, std::uint64_t seed, ByteBuffer& scratch) {
  return core::with_bytes(model, scratch, [&](const void* data, std::size_t size) {
    return ModelHash{core::hash64(data, size, seed), size};
  });
}

}  // namespace merilo::linearize::detail

#endif  // MERILO_LINEARIZE_DETAIL_HASH_HPP
