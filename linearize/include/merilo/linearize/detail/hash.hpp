// merilo/linearize/detail/hash.hpp — XXH3 hashes of models and progress keys.
#ifndef MERILO_LINEARIZE_DETAIL_HASH_HPP
#define MERILO_LINEARIZE_DETAIL_HASH_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

#include <merilo/linearize/model.hpp>

namespace merilo::linearize::detail {

/// XXH3-64 of `size` bytes at `data` with `seed`. Compiled once in src/ so
/// xxHash stays out of the public headers.
[[nodiscard]] std::uint64_t hash_bytes(const void* data, std::size_t size,
                                       std::uint64_t seed) noexcept;

/// A fixed 64-bit mix (splitmix64's finaliser): the per-operation keys the
/// recorded-history cache XORs together.
[[nodiscard]] constexpr std::uint64_t mix64(std::uint64_t x) noexcept {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30U)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27U)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31U);
}

/// The byte sink handed to a model's `feed`.
class ByteBuffer {
 public:
  void operator()(const void* data, std::size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    bytes_.insert(bytes_.end(), p, p + size);
  }
  void clear() noexcept { bytes_.clear(); }
  [[nodiscard]] const unsigned char* data() const noexcept { return bytes_.data(); }
  [[nodiscard]] std::size_t size() const noexcept { return bytes_.size(); }

 private:
  std::vector<unsigned char> bytes_;
};

/// A model's hash, seeded with the hash of the progress it is paired with,
/// and the number of bytes that identify it (the cache's memory estimate).
struct ModelHash {
  std::uint64_t hash = 0;
  std::size_t bytes = 0;
};

template <Model M>
[[nodiscard]] ModelHash hash_model(const M& model, std::uint64_t seed, ByteBuffer& scratch) {
  if constexpr (fsm::ByteHashable<M>) {
    return ModelHash{hash_bytes(&model, sizeof(M), seed), sizeof(M)};
  } else {
    scratch.clear();
    model.feed(scratch);
    return ModelHash{hash_bytes(scratch.data(), scratch.size(), seed), scratch.size()};
  }
}

}  // namespace merilo::linearize::detail

#endif  // MERILO_LINEARIZE_DETAIL_HASH_HPP
