// merilo/fsm/world.hpp — what a world must be for merilo to fingerprint it.
//
// The checkers (the explorer, replay, the fuzz runner, the linearizability
// checker's model states) store a 128-bit hash of each value instead of the
// value, so two equal values must hash the same. That holds when a type's
// bytes are its value (`ByteHashable`: trivially copyable, no padding, no
// floats) or when it hands its identifying bytes over itself (`FeedsBytes`).
// `World` is either.
//
// Example:
//
//   struct World {            // ByteHashable: 1 + 1 + 6 + 8 bytes, no gaps
//     std::uint8_t state;
//     std::uint8_t retries;
//     std::uint8_t pad_[6];   // explicit, zeroed padding
//     std::uint64_t generation;
//   };
//   static_assert(merilo::fsm::World<World>);
//
// NOTE: production code needs none of this; only the checkers and the
// adapters they drive do. It is std-only and header-only, like fsm.hpp.
#ifndef MERILO_FSM_WORLD_HPP
#define MERILO_FSM_WORLD_HPP

#include <concepts>     // std::copyable
#include <cstddef>      // std::size_t
#include <type_traits>  // trivially copyable / unique object representations

namespace merilo::fsm {

/// A type whose object bytes identify its value: trivially copyable, with no
/// padding or other bits outside the value. Such a world can be fingerprinted
/// by hashing its bytes.
template <class W>
concept ByteHashable =
    std::is_trivially_copyable_v<W> && std::has_unique_object_representations_v<W>;

namespace detail {
/// Stands in for the byte sink a checker passes to `W::feed`.
struct ByteSinkArchetype {
  void operator()(const void* data, std::size_t size) noexcept;
};
}  // namespace detail

/// A type that hands its identifying bytes to a sink itself: it has
///   `template <class Sink> void feed(Sink& sink) const;`
/// which calls `sink(pointer, size)` for each run of bytes that identifies the
/// value (for a std::string, its size and then its characters). Two values
/// must feed the same bytes exactly when they are equal.
// clang-format off
template <class W>
concept FeedsBytes = requires(const W& w, detail::ByteSinkArchetype& sink) {
  w.feed(sink);
};
// clang-format on

/// A world: a snapshot of a whole system that merilo can copy and
/// fingerprint. Either its bytes are its value (`ByteHashable`: the usual
/// case, a struct of machines and fixed arrays with no padding), or it feeds
/// its bytes itself (`FeedsBytes`).
///
/// NOTE: a struct with padding fails `ByteHashable`: reorder its fields, make
/// the padding explicit (a zeroed `std::uint8_t pad_[N]`), or give it `feed`.
// clang-format off
template <class W>
concept World = std::copyable<W> && (ByteHashable<W> || FeedsBytes<W>);
// clang-format on

}  // namespace merilo::fsm

#endif  // MERILO_FSM_WORLD_HPP
