// merilo/explore/detail/frontier.hpp — one level's worlds, waiting to be
// expanded, in fixed blocks, in memory or spilled to a file.
//
// Per world: its state id (4 bytes), and either its fingerprint (replay
// mode: 16 bytes, to check that replaying its path reached it) or the world
// itself (restore mode). Blocks hold one slice of the search (`kBlock`
// worlds), so the block of a slice already merged can be released while the
// next level grows, and growing never copies.
//
// A spilling frontier (the second constructor) keeps its worlds as records
// (id, then fingerprint or world bytes) in a buffer of at most `bound`
// bytes; each time the buffer is full it is appended to the level's own
// spill file. After `seal()`, `load` reads one slice's records back (from
// the file, or from the buffer when the level never outgrew it) into that
// slice's block, so the level being expanded holds one block in memory
// (docs/design/disk-frontier.md).
#ifndef MERILO_EXPLORE_DETAIL_FRONTIER_HPP
#define MERILO_EXPLORE_DETAIL_FRONTIER_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <merilo/explore/detail/fingerprint.hpp>
#include <merilo/explore/detail/spill_file.hpp>

namespace merilo::explore::detail {

/// One level's worlds.
template <class W>
class Frontier {
 public:
  static constexpr std::size_t kBlockBits = 16;
  static constexpr std::size_t kBlock = std::size_t{1} << kBlockBits;

  /// A frontier in memory that stores worlds (`restore`) or fingerprints.
  explicit Frontier(bool restore) : restore_(restore) {}
  /// A spilling frontier: at most `bound` bytes (at least one record) of
  /// pushed worlds stay in memory; the rest go to a spill file created in
  /// `dir` when first needed. In restore mode `W` must be trivially
  /// copyable (its bytes are written). `buffer` is memory to reuse, e.g.
  /// a finished level's `take_buffer()`.
  Frontier(bool restore, std::string dir, std::size_t bound, std::vector<std::byte> buffer = {})
      : restore_(restore), spill_(std::make_unique<Spill>()) {
    spill_->dir = std::move(dir);
    spill_->bound = bound;
    spill_->buffer = std::move(buffer);
    spill_->buffer.clear();
  }
  /// A spilling frontier's buffer, for the next level to reuse: memory
  /// freed and taken again every level would let the allocator keep more
  /// of it (glibc raises its mmap threshold to the size of a big block
  /// freed, and keeps smaller blocks in its heap from then on).
  [[nodiscard]] std::vector<std::byte> take_buffer() {
    return spill_ ? std::move(spill_->buffer) : std::vector<std::byte>{};
  }

  /// Appends a world stored as `id`: its fingerprint `fp` and, in restore
  /// mode, the world itself (`*world`, never null then). A spilling
  /// frontier may write to its file (and throw `SpillError`).
  void push(std::uint32_t id, const Fingerprint& fp, const W* world) {
    if (spill_) {
      push_record(id, fp, world);
      ++size_;
      return;
    }
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
  /// Ends the pushes: a spilling frontier that wrote any of its records to
  /// its file writes the rest there too.
  void seal() {
    if (!spill_ || !spill_->file) return;
    if (!spill_->buffer.empty()) flush();
  }
  /// Makes worlds [first, last) — one slice: `first` a multiple of
  /// `kBlock`, `last` at most `kBlock` beyond it — readable, after `seal`.
  /// A no-op in memory; a spilling frontier reads them back.
  void load(std::size_t first, std::size_t last) {
    if (!spill_) return;
    const std::size_t b = first >> kBlockBits;
    if (blocks_.size() <= b) blocks_.resize(b + 1);
    Block& block = blocks_[b];
    // One block is loaded at a time: the slice before's vectors are reused.
    if (spill_->loaded != b && spill_->loaded < blocks_.size()) {
      block = std::move(blocks_[spill_->loaded]);
      blocks_[spill_->loaded] = Block{};
    }
    spill_->loaded = b;
    const std::size_t n = last - first;
    const std::size_t rec = record_bytes();
    const std::byte* at = nullptr;
    if (spill_->file) {
      spill_->buffer.resize(n * rec);
      spill_->file->read(std::uint64_t{first} * rec, spill_->buffer.data(), n * rec);
      at = spill_->buffer.data();
    } else {
      at = spill_->buffer.data() + first * rec;
    }
    block.ids.resize(n);
    if (restore_) {
      block.worlds.resize(n);
    } else {
      block.fps.resize(n);
    }
    for (std::size_t i = 0; i < n; ++i, at += rec) {
      std::memcpy(&block.ids[i], at, sizeof(std::uint32_t));
      if (restore_) {
        copy_world(&block.worlds[i], at + sizeof(std::uint32_t));
      } else {
        std::memcpy(&block.fps[i], at + sizeof(std::uint32_t), sizeof(Fingerprint));
      }
    }
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
  /// (A spilling frontier keeps the block's memory for the next `load`.)
  void release(std::size_t i) {
    if (spill_) return;
    Block& b = blocks_[i >> kBlockBits];
    b = Block{};
  }
  /// Bytes of the blocks held, and of a spilling frontier's buffer.
  [[nodiscard]] std::size_t memory_bytes() const noexcept {
    std::size_t n = spill_ ? spill_->buffer.capacity() : 0;
    for (const Block& b : blocks_) {
      n += b.ids.capacity() * sizeof(std::uint32_t) + b.fps.capacity() * sizeof(Fingerprint) +
           b.worlds.capacity() * sizeof(W);
    }
    return n;
  }
  /// Bytes a spilling frontier wrote to its file.
  [[nodiscard]] std::uint64_t spilled_bytes() const noexcept {
    return spill_ && spill_->file ? spill_->file->size() : 0;
  }

 private:
  struct Block {
    std::vector<std::uint32_t> ids;
    std::vector<Fingerprint> fps;  // replay mode
    std::vector<W> worlds;         // restore mode
  };
  // A spilling frontier's buffer and file (behind a pointer, so an
  // in-memory frontier stays small and moves cheaply).
  struct Spill {
    std::string dir;
    std::size_t bound = 0;
    std::vector<std::byte> buffer;  // records not written yet; after seal, a read slice
    std::unique_ptr<SpillFile> file;
    std::size_t loaded = static_cast<std::size_t>(-1);  // the block `load` filled last
  };
  [[nodiscard]] const Block& block(std::size_t i) const { return blocks_[i >> kBlockBits]; }
  // The most a spilling frontier's buffer reserves at once; a bigger bound
  // lets it grow past this as records come.
  static constexpr std::size_t kMaxReserve = std::size_t{64} << 20;

  [[nodiscard]] std::size_t record_bytes() const noexcept {
    return sizeof(std::uint32_t) + (restore_ ? sizeof(W) : sizeof(Fingerprint));
  }
  static void copy_world([[maybe_unused]] W* to, [[maybe_unused]] const std::byte* from) {
    if constexpr (std::is_trivially_copyable_v<W>) {
      std::memcpy(static_cast<void*>(to), from, sizeof(W));
    } else {
      throw SpillError("merilo: internal error: a world that is not trivially copyable spilled");
    }
  }

  void push_record(std::uint32_t id, const Fingerprint& fp, const W* world) {
    const std::size_t rec = record_bytes();
    std::vector<std::byte>& buf = spill_->buffer;
    if (buf.capacity() < rec) buf.reserve(std::min(std::max(spill_->bound, rec), kMaxReserve));
    if (buf.size() + rec > std::max(spill_->bound, rec)) flush();
    const std::size_t at = buf.size();
    buf.resize(at + rec);
    std::memcpy(&buf[at], &id, sizeof(std::uint32_t));
    if (restore_) {
      if constexpr (std::is_trivially_copyable_v<W>) {
        std::memcpy(&buf[at + sizeof(std::uint32_t)], static_cast<const void*>(world), sizeof(W));
      } else {
        throw SpillError("merilo: internal error: a world that is not trivially copyable spilled");
      }
    } else {
      std::memcpy(&buf[at + sizeof(std::uint32_t)], &fp, sizeof(Fingerprint));
    }
  }

  void flush() {
    if (!spill_->file) spill_->file = std::make_unique<SpillFile>(spill_->dir, "frontier");
    spill_->file->append(spill_->buffer.data(), spill_->buffer.size());
    spill_->buffer.clear();
  }

  bool restore_;
  std::size_t size_ = 0;
  std::vector<Block> blocks_;
  std::unique_ptr<Spill> spill_;  // null in memory
};

}  // namespace merilo::explore::detail

#endif  // MERILO_EXPLORE_DETAIL_FRONTIER_HPP
