// merilo/statem/rng.hpp — the deterministic random stream every generator
// draws from, and the size that bounds how big draws may be.
//
// Example:
//
//   merilo::statem::Rng rng{42};          // size kMaxSize: full ranges
//   std::uint64_t a = rng.next();         // the same on every platform
//   merilo::statem::Rng child = rng.split();  // an unrelated stream
//
// NOTE: there is no default seed: every `Rng` is built from a seed the
// caller chose. An `Rng` is mutable and belongs to one thread.
#ifndef MERILO_STATEM_RNG_HPP
#define MERILO_STATEM_RNG_HPP

#include <cstdint>  // std::uint64_t

#include <merilo/core/hash.hpp>  // core::splitmix_finaliser

namespace merilo::statem {

/// The largest size (see `Rng::size`): full ranges and full lengths.
inline constexpr std::uint64_t kMaxSize = 100;

/// A deterministic 64-bit pseudo-random generator (SplitMix64) that also
/// carries a *size*.
///
/// Stream derivation: `Rng{s}` produces `mix(s + k * kGamma)` for k = 1, 2,
/// ..., where `mix` is SplitMix64's finaliser. `split()` takes the next output,
/// passes it through a second, different mixer and seeds a child `Rng` with
/// it, so a parent and its children draw from unrelated streams.
///
/// Size: a number in [0, kMaxSize] that says how big draws may be. statem
/// gives early runs small sizes and later runs `kMaxSize`; `integer` draws
/// from the part of its range around its target scaled by size / kMaxSize,
/// and `vector_of` scales its extra length the same way. `Rng{seed}` has
/// size `kMaxSize`, so a generator used outside statem draws from its whole
/// range. The size never changes the stream itself, only how draws use it.
class Rng {
 public:
  /// The Weyl-sequence increment of SplitMix64 (the golden ratio in 64 bits).
  static constexpr std::uint64_t kGamma = core::kSplitMixGamma;

  /// A stream starting at `seed`, at size `size` (clamped to kMaxSize).
  /// There is deliberately no default constructor: every stream names its
  /// seed.
  constexpr explicit Rng(std::uint64_t seed, std::uint64_t size = kMaxSize) noexcept
      : state_(seed), size_(size < kMaxSize ? size : kMaxSize) {}

  /// How big draws may be, in [0, kMaxSize].
  [[nodiscard]] constexpr std::uint64_t size() const noexcept { return size_; }

  /// The next 64 uniformly distributed bits.
  constexpr std::uint64_t next() noexcept {
    state_ += kGamma;
    return mix(state_);
  }

  /// A uniform value in [0, bound). `bound == 0` means the full 64-bit range.
  /// Uses rejection, so the result is unbiased.
  constexpr std::uint64_t below(std::uint64_t bound) noexcept {
    if (bound == 0) return next();
    const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % bound);
    for (;;) {
      const std::uint64_t x = next();
      if (x < limit) return x % bound;
    }
  }

  /// A child stream of the same size; advances this one by one draw.
  constexpr Rng split() noexcept { return Rng{remix(next()), size_}; }

  /// SplitMix64's output function (a bijection on 64-bit values).
  static constexpr std::uint64_t mix(std::uint64_t z) noexcept {
    return core::splitmix_finaliser(z);
  }

  /// A second bijective mixer (MurmurHash3's 64-bit finaliser), different
  /// from `mix`, used only to seed children.
  static constexpr std::uint64_t remix(std::uint64_t z) noexcept {
    z = (z ^ (z >> 33)) * 0xFF51AFD7ED558CCDULL;
    z = (z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53ULL;
    return z ^ (z >> 33);
  }

  /// The same state: the same numbers follow.
  friend constexpr bool operator==(const Rng&, const Rng&) noexcept = default;

 private:
  std::uint64_t state_;
  std::uint64_t size_;
};

/// `distance * size / kMaxSize`, rounded up, without overflow: how far from
/// its target a draw at `size` may go when the full range allows `distance`.
[[nodiscard]] constexpr std::uint64_t scale(std::uint64_t distance, std::uint64_t size) noexcept {
  if (size >= kMaxSize) return distance;
  const std::uint64_t whole = (distance / kMaxSize) * size;
  const std::uint64_t part = (distance % kMaxSize) * size;
  return whole + part / kMaxSize + (part % kMaxSize != 0 ? 1 : 0);
}

/// The seed of run `run` of a check seeded with `seed`: output number
/// `run + 1` of `Rng{seed}`, computed directly, so run i can be reproduced
/// without generating runs 0 .. i-1.
[[nodiscard]] constexpr std::uint64_t run_seed(std::uint64_t seed, std::uint64_t run) noexcept {
  return Rng::mix(seed + (run + 1) * Rng::kGamma);
}

}  // namespace merilo::statem

#endif  // MERILO_STATEM_RNG_HPP
