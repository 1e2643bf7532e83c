// merilo/core/hash.hpp — stable XXH3 hashes of values' bytes.
//
// The explorer fingerprints worlds (128 bits, so that a collision among
// billions of stored worlds stays negligible), and the linearizability
// checker hashes models (64 bits, with an exact comparison behind every
// hash match). Both hash a value's bytes: straight from memory when the
// type is `fsm::ByteHashable`, else the bytes its `feed` writes into a
// `ByteBuffer`. The seeds are fixed, so the same value hashes the same in
// every run, build and process.
//
// Example:
//
//   merilo::core::Hash128 fp = merilo::core::hash128_of(world);
//   std::uint64_t h = merilo::core::hash64(bytes.data(), bytes.size(), seed);
#ifndef MERILO_CORE_HASH_HPP
#define MERILO_CORE_HASH_HPP

#include <cstddef>  // std::size_t
#include <cstdint>  // std::uint64_t
#include <cstring>  // std::memcpy
#include <vector>   // ByteBuffer

#include <merilo/fsm/fsm.hpp>  // ByteHashable, FeedsBytes
#include <merilo/fsm/world.hpp>

namespace merilo::core {

/// A 128-bit hash: the explorer's world fingerprint.
struct Hash128 {
  /// The low 64 bits.
  std::uint64_t lo = 0;
  /// The high 64 bits.
  std::uint64_t hi = 0;
  /// Equal when both halves are.
  friend bool operator==(const Hash128&, const Hash128&) noexcept = default;
};

/// XXH3-128 of `size` bytes at `data`, with merilo's fixed seed. Compiled
/// once in src/ (xxHash stays out of the public headers).
[[nodiscard]] Hash128 hash128(const void* data, std::size_t size) noexcept;

/// XXH3-64 of `size` bytes at `data` with `seed`.
[[nodiscard]] std::uint64_t hash64(const void* data, std::size_t size, std::uint64_t seed) noexcept;

/// SplitMix64's Weyl-sequence increment (the golden ratio in 64 bits).
inline constexpr std::uint64_t kSplitMixGamma = 0x9e3779b97f4a7c15ULL;

/// SplitMix64's output function, a bijection on 64-bit values.
[[nodiscard]] constexpr std::uint64_t splitmix_finaliser(std::uint64_t x) noexcept {
  x = (x ^ (x >> 30U)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27U)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31U);
}

/// A fixed 64-bit mix (one SplitMix64 step from `x`), for combining small
/// keys.
[[nodiscard]] constexpr std::uint64_t mix64(std::uint64_t x) noexcept {
  return splitmix_finaliser(x + kSplitMixGamma);
}

/// The SplitMix64 stream from `seed`: the same numbers on every platform
/// and standard library (tests and benches draw their data from it; statem's
/// `Rng` is the same stream with a size and splitting).
class SplitMix64 {
 public:
  /// The stream whose first output is `mix64(seed)`.
  constexpr explicit SplitMix64(std::uint64_t seed) noexcept : state_(seed) {}
  /// The next 64 bits.
  constexpr std::uint64_t next() noexcept {
    state_ += kSplitMixGamma;
    return splitmix_finaliser(state_);
  }
  /// `next() % bound` (slightly biased for a bound that is not a power of
  /// two, which test data does not mind); `bound` must not be 0.
  constexpr std::uint64_t below(std::uint64_t bound) noexcept { return next() % bound; }

 private:
  std::uint64_t state_;
};

/// The byte sink handed to a value's `feed` (see `fsm::FeedsBytes`).
class ByteBuffer {
 public:
  /// Appends `size` bytes at `data` (what `feed` calls).
  void operator()(const void* data, std::size_t size) {
    // resize + memcpy rather than a range insert: g++ 12 at -O3 warns
    // (-Warray-bounds, -Wstringop-overflow) on an insert at the end of a
    // vector just cleared, in every user's `feed` inlined here.
    if (size == 0) return;
    const std::size_t at = bytes_.size();
    bytes_.resize(at + size);
    std::memcpy(bytes_.data() + at, data, size);
  }
  /// Forgets the bytes, keeping the memory.
  void clear() noexcept { bytes_.clear(); }
  /// The bytes fed so far.
  [[nodiscard]] const unsigned char* data() const noexcept { return bytes_.data(); }
  /// How many bytes were fed.
  [[nodiscard]] std::size_t size() const noexcept { return bytes_.size(); }

 private:
  std::vector<unsigned char> bytes_;
};

/// Calls `f(data, size)` with the bytes that identify `value`: its object
/// representation when it is `ByteHashable`, else what its `feed` writes
/// into `scratch`.
template <class T, class F>
decltype(auto) with_bytes(const T& value, ByteBuffer& scratch, F&& f) {
  if constexpr (fsm::ByteHashable<T>) {
    return f(static_cast<const void*>(&value), sizeof(T));
  } else {
    scratch.clear();
    value.feed(scratch);
    return f(static_cast<const void*>(scratch.data()), scratch.size());
  }
}

/// The 128-bit hash of a world (see `fsm::World`).
template <fsm::World W>
[[nodiscard]] Hash128 hash128_of(const W& w) {
  thread_local ByteBuffer scratch;
  return with_bytes(w, scratch, [](const void* p, std::size_t n) { return hash128(p, n); });
}

}  // namespace merilo::core

#endif  // MERILO_CORE_HASH_HPP
