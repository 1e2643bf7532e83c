// merilo/explore/detail/parent_links.hpp — how each stored world was first
// reached, for traces.
//
// State id `i` (0 is the initial world) has a 4-byte parent id and the kind
// taken from the parent, in 1, 2 or 4 bytes as the system's kind count
// needs: 5 bytes per world for up to 256 kinds. Links live in fixed blocks,
// so growing never copies and never holds twice the memory.
//
// With `spill`, every full block is written to a spill file and freed, so
// memory holds only the block being filled; a link in a written block is
// read back from the file when a path crosses it
// (docs/design/disk-frontier.md).
//
// NOTE: `path`, `parent` and `kind` may run on many threads at once while
// nothing adds. They throw `SpillError` when a spilled link cannot be read.
#ifndef MERILO_EXPLORE_DETAIL_PARENT_LINKS_HPP
#define MERILO_EXPLORE_DETAIL_PARENT_LINKS_HPP

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include <merilo/explore/detail/spill_file.hpp>
#include <merilo/explore/trace.hpp>

namespace merilo::explore::detail {

/// Parent links indexed by state id.
class ParentLinks {
 public:
  /// Links for a system with `kinds` step kinds.
  explicit ParentLinks(std::size_t kinds);

  /// Writes each full block to `file` and frees it, with blocks of
  /// 2^`block_bits` links (6..18) instead of 2^18. Call before the first add.
  void spill(std::unique_ptr<SpillFile> file, std::size_t block_bits);
  /// The most `block_bits` a `spill` takes, and the least.
  static constexpr std::size_t kMaxBlockBits = 18;
  static constexpr std::size_t kMinBlockBits = 6;
  /// Adds the initial world, id 0.
  void add_root() { add(0, 0); }
  /// Adds the next id: reached from `parent` by `kind`.
  void add(std::uint32_t parent, std::size_t kind);
  /// The kinds from the initial world to state `id`.
  [[nodiscard]] Trace path(std::uint32_t id) const;
  /// The parent of state `id` (the distributed search walks links one at
  /// a time, across ranks).
  [[nodiscard]] std::uint32_t parent(std::uint32_t id) const { return link(id).first; }
  /// The kind stored with state `id`'s link.
  [[nodiscard]] std::size_t kind(std::uint32_t id) const { return link(id).second; }
  /// Links stored.
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  /// Bytes of the blocks held in memory.
  [[nodiscard]] std::size_t memory_bytes() const noexcept;
  /// Bytes written to the spill file.
  [[nodiscard]] std::uint64_t spilled_bytes() const noexcept { return file_ ? file_->size() : 0; }

 private:
  struct Block {
    std::unique_ptr<std::uint32_t[]> parent;
    std::unique_ptr<std::uint8_t[]> kind;
  };
  // State `id`'s parent and kind, from memory or the spill file.
  [[nodiscard]] std::pair<std::uint32_t, std::size_t> link(std::uint32_t id) const;
  void write_out(Block& b);

  std::size_t kind_bytes_;
  std::size_t block_bits_ = kMaxBlockBits;
  std::size_t block_ = std::size_t{1} << kMaxBlockBits;  // links per block
  std::size_t size_ = 0;
  std::vector<Block> blocks_;       // a written block has null arrays
  std::size_t written_blocks_ = 0;  // blocks [0, written_blocks_) are in `file_`
  std::unique_ptr<SpillFile> file_;
  std::vector<std::uint8_t> out_;  // a block's records, being written
};

}  // namespace merilo::explore::detail

#endif  // MERILO_EXPLORE_DETAIL_PARENT_LINKS_HPP
