// merilo/explore/detail/fingerprint.hpp — 128-bit world fingerprints (XXH3).
#ifndef MERILO_EXPLORE_DETAIL_FINGERPRINT_HPP
#define MERILO_EXPLORE_DETAIL_FINGERPRINT_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

#include <merilo/fsm/fsm.hpp>

namespace merilo::explore::detail {

/// XXH3-128 of a world's bytes, with a fixed seed so fingerprints are the
/// same across runs and builds.
struct Fingerprint {
  std::uint64_t lo = 0;
  std::uint64_t hi = 0;
  friend bool operator==(const Fingerprint&, const Fingerprint&) noexcept = default;
};

/// Hashes `size` bytes at `data`. Compiled once in src/ (xxHash stays out
/// of the public headers).
[[nodiscard]] Fingerprint fingerprint_bytes(const void* data, std::size_t size) noexcept;

/// The byte sink handed to a world's `feed`.
class ByteBuffer {
 public:
  void operator()(const void* data, std::size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    bytes_.insert(bytes_.end(), p, p + size);
  }
  void clear() noexcept { bytes_.clear(); }
  [[nodiscard]] const std::vector<unsigned char>& bytes() const noexcept { return bytes_; }

 private:
  std::vector<unsigned char> bytes_;
};

/// The fingerprint of a world.
template <fsm::World W>
[[nodiscard]] Fingerprint fingerprint(const W& w) {
  if constexpr (fsm::ByteHashable<W>) {
    return fingerprint_bytes(&w, sizeof(W));
  } else {
    thread_local ByteBuffer buffer;
    buffer.clear();
    w.feed(buffer);
    return fingerprint_bytes(buffer.bytes().data(), buffer.bytes().size());
  }
}

}  // namespace merilo::explore::detail

#endif  // MERILO_EXPLORE_DETAIL_FINGERPRINT_HPP
