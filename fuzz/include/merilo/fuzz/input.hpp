// merilo/fuzz/input.hpp — the fuzz input format: a swarm mask, then kinds.
//
// A fuzz input is a byte string that a fuzzer mutates freely and that merilo
// reads as a schedule for one system. It has two parts:
//
//   1. the swarm mask, `mask_bytes(kinds)` bytes: bit `k % 8` of byte `k / 8`
//      set keeps kind `k` out of this input while any kind without its bit
//      is enabled (the same input then explores a corner of the system
//      where, say, no message is ever dropped);
//   2. choices, each an unsigned LEB128 varint. A choice that names an
//      enabled, unmasked kind is taken as it is; any other value picks among
//      the enabled unmasked kinds, in increasing order, by its value modulo
//      their count.
//
// Every byte string is a valid input: an input shorter than its mask reads
// the missing mask bytes as zero and has no choices; a varint cut off by the
// end of the input is dropped; bits of a varint beyond the 64th are ignored.
// `to_fuzz_bytes(kinds, trace)` writes an all-zero mask and the trace's kinds
// as they are, so a trace the explorer found replays exactly.
//
// Example:
//
//   // The turnstile has 2 kinds (coin, push): one mask byte, then kinds.
//   merilo::fuzz::FuzzBytes b = merilo::fuzz::to_fuzz_bytes(2, {0, 1, 1});
//   // b.bytes == {0x00, 0x00, 0x01, 0x01}
//
// See docs/fuzz.md for the whole format and for what happens when the
// choices run out (the drain).
#ifndef MERILO_FUZZ_INPUT_HPP
#define MERILO_FUZZ_INPUT_HPP

#include <cstddef>  // std::size_t
#include <cstdint>  // std::uint8_t, std::uint64_t
#include <span>     // the input bytes
#include <string>   // FuzzBytes::error
#include <vector>   // FuzzBytes::bytes

#include <merilo/explore/system.hpp>
#include <merilo/explore/trace.hpp>

namespace merilo::fuzz {

/// The number of swarm-mask bytes that open an input for a system with
/// `kinds` kinds: one bit per kind, rounded up to whole bytes.
[[nodiscard]] constexpr std::size_t mask_bytes(std::size_t kinds) noexcept {
  return (kinds + 7) / 8;
}

/// Reads one fuzz input: its swarm mask, then its choices one at a time.
///
/// NOTE: an `Input` views the bytes it was built from; they must outlive it.
class Input {
 public:
  /// An input for a system with `kinds` kinds.
  Input(std::span<const std::uint8_t> bytes, std::size_t kinds) noexcept;

  /// Whether the mask keeps kind `k` out (mask bytes past the end read as 0).
  [[nodiscard]] bool masked(explore::Kind k) const noexcept;

  /// Reads the next choice into `value`; false when no complete varint is
  /// left (the input has run out).
  [[nodiscard]] bool next(std::uint64_t& value) noexcept;

  /// Bytes read so far, mask included.
  [[nodiscard]] std::size_t consumed() const noexcept { return pos_; }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t mask_ = 0;  // mask bytes actually present
  std::size_t pos_ = 0;
};

/// Picks the kind a choice `value` stands for among `candidates` (the
/// enabled unmasked kinds, sorted, not empty): `value` itself when it is one
/// of them, else `candidates[value % candidates.size()]`.
[[nodiscard]] explore::Kind choose(std::uint64_t value,
                                   std::span<const explore::Kind> candidates) noexcept;

/// Appends `value` to `out` as an unsigned LEB128 varint.
void append_varint(std::vector<std::uint8_t>& out, std::uint64_t value);

/// An encoded input, or why `trace` could not be encoded.
struct FuzzBytes {
  /// The input: the swarm mask, then one varint per kind.
  std::vector<std::uint8_t> bytes;
  /// Set when a kind of the trace is out of range; `bytes` is then empty.
  std::string error;
  /// The trace was encoded.
  [[nodiscard]] bool ok() const noexcept { return error.empty(); }
};

/// Encodes `trace` as a fuzz input for a system with `kinds` kinds: an
/// all-zero mask, then every kind as a varint. Refuses a kind >= `kinds`.
[[nodiscard]] FuzzBytes to_fuzz_bytes(std::size_t kinds, const explore::Trace& trace);

/// The same for `sys`, taking its `kinds()`.
template <explore::System S>
[[nodiscard]] FuzzBytes to_fuzz_bytes(const S& sys, const explore::Trace& trace) {
  return to_fuzz_bytes(static_cast<std::size_t>(sys.kinds()), trace);
}

}  // namespace merilo::fuzz

#endif  // MERILO_FUZZ_INPUT_HPP
