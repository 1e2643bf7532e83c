// merilo/explore/detail/frontier.hpp — one level's worlds, waiting to be
// expanded, in fixed blocks.
//
// Per world: its state id (4 bytes), and either its fingerprint (replay
// mode: 16 bytes, to check that replaying its path reached it) or the world
// itself (restore mode). Blocks hold one slice of the search (`kBlock`
// worlds), so the block of a slice already merged can be released while the
// next level grows, and growing never copies.
#ifndef MERILO_EXPLORE_DETAIL_FRONTIER_HPP
#define MERILO_EXPLORE_DETAIL_FRONTIER_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

#include <merilo/explore/detail/fingerprint.hpp>

namespace merilo::explore::detail {

/// One level's worlds.
template <class W>
class Frontier {
 public:
  static constexpr std::size_t kBlockBits = 16;
  static constexpr std::size_t kBlock = std::size_t{1} << kBlockBits;

  /// A frontier that stores worlds (`restore`) or fingerprints.
  explicit Frontier(bool restore) : restore_(restore) {}

  /// Appends a world stored as `id`: its fingerprint `fp` and, in restore
  /// mode, the world itself (`*world`, never null then).
  void push(std::uint32_t id, const Fingerprint& fp, const W* world) {
    // Not reserved up front: a block of big worlds would cost its full
    // size for a level of a few.
    if ((size_ & (kBlock - 1)) == 0) blocks_.emplace_back();
    Block& b = blocks_.back();
    b.ids.push_back(id);
    if (restore_) {
      b.worlds.push_back(*world);
    } else {
      b.fps.push_back(fp);
    }
    ++size_;
  }
  /// Worlds in the level.
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  /// The state id of world `i`.
  [[nodiscard]] std::uint32_t id(std::size_t i) const { return block(i).ids[i & (kBlock - 1)]; }
  /// The fingerprint of world `i` (replay mode).
  [[nodiscard]] const Fingerprint& fp(std::size_t i) const {
    return block(i).fps[i & (kBlock - 1)];
  }
  /// World `i` (restore mode).
  [[nodiscard]] const W& world(std::size_t i) const { return block(i).worlds[i & (kBlock - 1)]; }
  /// Frees the block holding world `i`; its worlds must not be read again.
  void release(std::size_t i) {
    Block& b = blocks_[i >> kBlockBits];
    b = Block{};
  }
  /// Bytes of the blocks held.
  [[nodiscard]] std::size_t memory_bytes() const noexcept {
    std::size_t n = 0;
    for (const Block& b : blocks_) {
      n += b.ids.capacity() * sizeof(std::uint32_t) + b.fps.capacity() * sizeof(Fingerprint) +
           b.worlds.capacity() * sizeof(W);
    }
    return n;
  }

 private:
  struct Block {
    std::vector<std::uint32_t> ids;
    std::vector<Fingerprint> fps;  // replay mode
    std::vector<W> worlds;         // restore mode
  };
  [[nodiscard]] const Block& block(std::size_t i) const { return blocks_[i >> kBlockBits]; }

  bool restore_;
  std::size_t size_ = 0;
  std::vector<Block> blocks_;
};

}  // namespace merilo::explore::detail

#endif  // MERILO_EXPLORE_DETAIL_FRONTIER_HPP
