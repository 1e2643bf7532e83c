// merilo/explore/detail/parent_links.hpp — how each stored world was first
// reached, for traces.
//
// State id `i` (0 is the initial world) has a 4-byte parent id and the kind
// taken from the parent, in 1, 2 or 4 bytes as the system's kind count
// needs: 5 bytes per world for up to 256 kinds. Links live in fixed blocks,
// so growing never copies and never holds twice the memory.
//
// NOTE: `path` may run on many threads at once while nothing adds.
#ifndef MERILO_EXPLORE_DETAIL_PARENT_LINKS_HPP
#define MERILO_EXPLORE_DETAIL_PARENT_LINKS_HPP

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <merilo/explore/trace.hpp>

namespace merilo::explore::detail {

/// Parent links indexed by state id.
class ParentLinks {
 public:
  /// Links for a system with `kinds` step kinds.
  explicit ParentLinks(std::size_t kinds);

  /// Adds the initial world, id 0.
  void add_root() { add(0, 0); }
  /// Adds the next id: reached from `parent` by `kind`.
  void add(std::uint32_t parent, std::size_t kind);
  /// The kinds from the initial world to state `id`.
  [[nodiscard]] Trace path(std::uint32_t id) const;
  /// The parent of state `id` (the distributed search walks links one at
  /// a time, across ranks).
  [[nodiscard]] std::uint32_t parent(std::uint32_t id) const noexcept {
    return blocks_[id >> kBlockBits].parent[id & (kBlock - 1)];
  }
  /// The kind stored with state `id`'s link.
  [[nodiscard]] std::size_t kind(std::uint32_t id) const noexcept { return kind_at(id); }
  /// Links stored.
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  /// Bytes of the blocks.
  [[nodiscard]] std::size_t memory_bytes() const noexcept;

 private:
  static constexpr std::size_t kBlockBits = 18;
  static constexpr std::size_t kBlock = std::size_t{1} << kBlockBits;
  struct Block {
    std::unique_ptr<std::uint32_t[]> parent;
    std::unique_ptr<std::uint8_t[]> kind;
  };
  [[nodiscard]] std::size_t kind_at(std::size_t id) const noexcept;

  std::size_t kind_bytes_;
  std::size_t size_ = 0;
  std::vector<Block> blocks_;
};

}  // namespace merilo::explore::detail

#endif  // MERILO_EXPLORE_DETAIL_PARENT_LINKS_HPP
